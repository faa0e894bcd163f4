import type { Attribute, Block } from './ast.ts';
import { headerSpan } from './body.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { literalOf } from './deferred-strings.ts';
import type { DeferredString } from './config-types.ts';
import type { McpSetting } from './mcp-config-types.ts';

/** An attribute's decoded value and the attribute itself (for positions). */
interface Read<T> {
  value: T;
  attribute: Attribute;
}

/** The attributes of an `mcp` block as read, each only when set (non-empty). */
export interface McpAttributes {
  command?: Read<string>;
  url?: Read<DeferredString>;
  source?: Read<string>;
  version?: Read<string>;
  entry?: Read<string>;
  args?: Read<DeferredString[]>;
  env?: Read<McpSetting[]>;
  headers?: Read<McpSetting[]>;
  clientId?: Read<DeferredString>;
  clientSecret?: Read<DeferredString>;
  clientMetadataUrl?: Read<string>;
}

/** How the server is reached, once the attributes are known to fit together. */
export type McpShape =
  | { kind: 'command'; command: string }
  | { kind: 'url'; url: DeferredString }
  | { kind: 'npm'; package: string; version: string }
  | { kind: 'github'; owner: string; repo: string; version: string };

/** Names of the reference runtime's built-in tool namespaces, which a server may not take. */
export const RESERVED_MCP_NAMES = ['http', 'dataset', 'utils', 'human', 'mcp'];

/**
 * The reference runtime's rules of an `mcp` block, each reported at the attribute concerned:
 * a reserved name; exactly one of `command`, `url`, `source`; `env`/`args` only for a process
 * sortie starts, `headers`/`client_id`/`client_secret` only for a url server and `client_secret`
 * only with `client_id`; `version` exactly with `source`; `source` as `npm:PACKAGE` or
 * `github.com/OWNER/REPO`; `entry` only with a github source. sortie adds: a literal `url` is
 * http(s), and `entry` stays inside the archive.
 */
export function checkMcpShape(
  name: string,
  block: Block,
  attributes: McpAttributes,
  context: DecodeContext,
): McpShape | undefined {
  const error = (read: Read<unknown>, message: string, onValue = false): undefined => {
    const span = onValue ? read.attribute.value.span : read.attribute.nameSpan;
    return errorAt(context, span, message);
  };
  if (RESERVED_MCP_NAMES.includes(name)) {
    errorAt(
      context,
      block.labelSpans[0] ?? block.typeSpan,
      `mcp server name "${name}" is reserved: ${RESERVED_MCP_NAMES.join(', ')} name built-in tool namespaces`,
    );
  }
  const modes = (['command', 'url', 'source'] as const).filter((key) => attributes[key]);
  const [mode, ...extra] = modes;
  for (const key of extra) {
    const read = attributes[key];
    if (read)
      error(
        read,
        `${key} cannot be combined with ${mode}: an MCP server has exactly one of command, url or source`,
      );
  }
  if (mode === undefined) {
    errorAt(
      context,
      headerSpan(block),
      `mcp "${name}" needs one of command, url or source`,
      'command runs a local server, url reaches a remote one, source installs a package (npm:NAME or github.com/OWNER/REPO)',
    );
  }
  checkModeAttributes(mode, attributes, error);
  checkVersionAndEntry(attributes, error);
  if (extra.length > 0 || mode === undefined) return undefined;
  if (mode === 'command' && attributes.command) {
    return { kind: 'command', command: attributes.command.value };
  }
  if (mode === 'url' && attributes.url) return checkUrl(attributes.url, error);
  return attributes.source && checkSource(attributes.source, attributes, error);
}

type Report = (read: Read<unknown>, message: string, onValue?: boolean) => undefined;

function checkModeAttributes(
  mode: 'command' | 'url' | 'source' | undefined,
  attributes: McpAttributes,
  error: Report,
): void {
  if (mode === 'url') {
    if (attributes.env)
      error(
        attributes.env,
        'env is not valid on a url server: it is for a process sortie starts (command or source)',
      );
    if (attributes.args)
      error(
        attributes.args,
        'args is not valid on a url server: they are for a process sortie starts (command or source)',
      );
  } else if (mode !== undefined) {
    if (attributes.headers) error(attributes.headers, 'headers is only valid on a url server');
    if (attributes.clientId) error(attributes.clientId, 'client_id is only valid on a url server');
    if (attributes.clientMetadataUrl) {
      error(attributes.clientMetadataUrl, 'client_metadata_url is only valid on a url server');
    }
    if (attributes.clientSecret && !attributes.clientId)
      error(attributes.clientSecret, 'client_secret is only valid on a url server');
  }
  if (attributes.clientSecret && !attributes.clientId && mode === 'url') {
    error(attributes.clientSecret, 'client_secret requires client_id');
  }
  const metadataUrl = attributes.clientMetadataUrl;
  if (metadataUrl && mode === 'url' && !isDocumentUrl(metadataUrl.value)) {
    error(
      metadataUrl,
      `client_metadata_url must be an https:// URL with a path (the client's metadata document), got ${JSON.stringify(metadataUrl.value)}`,
      true,
    );
  }
}

function checkVersionAndEntry(attributes: McpAttributes, error: Report): void {
  const { source, version, entry } = attributes;
  if (source && !version) {
    error(
      source,
      'version is required with source: the release to install, e.g. version = "1.2.0"',
    );
  }
  if (version && !source) error(version, 'version is only valid with source');
  if (entry && !source?.value.startsWith('github.com/')) {
    error(entry, 'entry is only valid with a github.com/OWNER/REPO source');
  } else if (entry && (entry.value.startsWith('/') || entry.value.split('/').includes('..'))) {
    error(entry, 'entry must be a relative path inside the release archive, without ".."', true);
  }
}

function checkUrl(url: Read<DeferredString>, error: Report): McpShape | undefined {
  const literal = literalOf(url.value);
  if (literal !== undefined && !isHttpUrl(literal)) {
    return error(
      url,
      `url must be an http:// or https:// URL, got ${JSON.stringify(literal)}`,
      true,
    );
  }
  return { kind: 'url', url: url.value };
}

/** A Client ID Metadata Document's URL: https, with a path beyond `/`. */
function isDocumentUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return url.protocol === 'https:' && url.pathname !== '/';
}

function isHttpUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const protocol = new URL(text).protocol;
  return protocol === 'http:' || protocol === 'https:';
}

function checkSource(
  source: Read<string>,
  attributes: McpAttributes,
  error: Report,
): McpShape | undefined {
  const version = attributes.version?.value;
  const text = source.value;
  if (text.startsWith('npm:')) {
    const pkg = text.slice('npm:'.length).trim();
    if (pkg === '') {
      return error(
        source,
        'source "npm:" needs a package name, e.g. "npm:@modelcontextprotocol/server-filesystem"',
        true,
      );
    }
    return version === undefined ? undefined : { kind: 'npm', package: pkg, version };
  }
  if (text.startsWith('github.com/')) {
    const parts = text.slice('github.com/'.length).split('/');
    const [owner, repo] = parts;
    if (parts.length !== 2 || !owner || !repo) {
      return error(source, `source ${JSON.stringify(text)} must be github.com/OWNER/REPO`, true);
    }
    return version === undefined ? undefined : { kind: 'github', owner, repo, version };
  }
  return error(
    source,
    `source must start with "npm:" or "github.com/", got ${JSON.stringify(text)}`,
    true,
  );
}
