/**
 * The resolved `mcp "NAME"` block: how sortie starts or reaches an MCP server (a command, an npm
 * or GitHub package, or a URL) and the settings it passes, secrets marked for redaction.
 */
import type { Span } from './ast.ts';
import type { DeferredString } from './config-types.ts';

/**
 * A string entry of an MCP server (`env` or `headers`). `secret` marks a value to redact
 * everywhere: one that interpolates a secret variable, or whose name reads like a credential
 * (`Authorization`, `*_TOKEN`, `*_KEY`, `*SECRET*`, `*PASSWORD*`, `Cookie`, ...).
 */
export interface McpSetting {
  name: string;
  value: DeferredString;
  secret: boolean;
}

/** A server started by sortie: a command, or a package it installs (`source`). */
interface McpProcessBase {
  /** Command-line arguments after the command or the package's entry point. */
  args: DeferredString[];
  /** Added to sortie's own environment for the server process. */
  env: McpSetting[];
}

/**
 * `command = "..."`: run as given (a bare name is looked up on PATH; a relative path with a `/`
 * is relative to the project root), speaking MCP over stdio.
 */
export interface McpCommandTransport extends McpProcessBase {
  kind: 'command';
  command: string;
}

/** `source = "npm:PACKAGE"` + `version`: installed once into sortie's cache, then run with node. */
export interface McpNpmTransport extends McpProcessBase {
  kind: 'npm';
  /** The npm package name, e.g. `@modelcontextprotocol/server-filesystem`. */
  package: string;
  version: string;
}

/**
 * `source = "github.com/OWNER/REPO"` + `version`: a release archive of that repository; `entry`
 * names the executable inside it when there is more than one.
 */
export interface McpGithubTransport extends McpProcessBase {
  kind: 'github';
  owner: string;
  repo: string;
  version: string;
  entry?: string;
}

/**
 * `url = "https://..."`: a remote server over Streamable HTTP, or the older SSE transport when
 * the URL's path ends in `/sse` (`mcpUrlTransport`). `headers` go with every request.
 */
export interface McpUrlTransport {
  kind: 'url';
  url: DeferredString;
  headers: McpSetting[];
  /** A pre-registered OAuth client (`client_id`, `client_secret`) for servers that require it. */
  oauth?: { clientId: DeferredString; clientSecret?: DeferredString };
  /** `client_metadata_url`: the HTTPS URL of sortie's OAuth Client ID Metadata Document. */
  clientMetadataUrl?: string;
}

export type McpTransport =
  McpCommandTransport | McpNpmTransport | McpGithubTransport | McpUrlTransport;

/**
 * An `mcp "NAME"` block: an MCP server whose tools agents and skills reference as
 * `mcp.NAME.all` / `mcp.NAME.TOOL`. Nothing is started or contacted at load time.
 */
export interface McpServerConfig {
  name: string;
  transport: McpTransport;
  /** `sampling = true`: the server's `sampling/createMessage` is answered by the calling agent's model. */
  sampling: boolean;
  span: Span;
}
