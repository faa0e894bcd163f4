/**
 * An MCP server as the run starts it: every value resolved (variables read), so the session
 * code never sees configuration expressions. `src/run/` builds these from the `mcp` blocks.
 */

/** Fields every server has. */
interface McpServerBase {
  /** The block label (`mcp "NAME"`): the server's name in tool names and messages. */
  name: string;
  /** `sampling = true`: the server may ask the calling agent's model (`sampling/createMessage`). */
  sampling?: boolean;
}

/** Fields of a server sortie runs as a child process speaking MCP over stdio. */
interface McpProcessFields {
  args: string[];
  /** Added to sortie's own environment for the child (these win). */
  env: Record<string, string>;
}

/** `command = "..."`: run as given, a bare name looked up on PATH. */
export interface McpCommandSpec extends McpServerBase, McpProcessFields {
  kind: 'command';
  command: string;
  /** The working directory of the child (the project root). */
  cwd?: string;
}

/** `source = "npm:PACKAGE"` + `version`: installed once into the cache, run with node. */
export interface McpNpmSpec extends McpServerBase, McpProcessFields {
  kind: 'npm';
  package: string;
  version: string;
}

/** `source = "github.com/OWNER/REPO"` + `version`: a release archive, run from the cache. */
export interface McpGithubSpec extends McpServerBase, McpProcessFields {
  kind: 'github';
  owner: string;
  repo: string;
  version: string;
  entry?: string;
}

/** `url = "..."`: Streamable HTTP, or SSE when the URL's path ends in `/sse`. */
export interface McpUrlSpec extends McpServerBase {
  kind: 'url';
  url: string;
  /** Sent with every request. */
  headers: Record<string, string>;
  /** The OAuth client the block names (`client_id`, `client_secret`, `client_metadata_url`). */
  oauth?: { clientId?: string; clientSecret?: string; clientMetadataUrl?: string };
}

export type McpServerSpec = McpCommandSpec | McpNpmSpec | McpGithubSpec | McpUrlSpec;

/** `mcp "NAME"` as messages name it. */
export function serverLabel(name: string): string {
  return `mcp "${name}"`;
}

/** True when the URL's path (trailing slashes ignored) ends in `/sse`: the legacy SSE transport. */
export function usesSseTransport(url: URL): boolean {
  return url.pathname.replace(/\/+$/, '').endsWith('/sse');
}
