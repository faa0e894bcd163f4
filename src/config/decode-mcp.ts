import type { Attribute, Block } from './ast.ts';
import { blockName, checkBody, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { literalOf, readDeferredString, variablesOf } from './deferred-strings.ts';
import { checkMcpShape, type McpAttributes, type McpShape } from './mcp-rules.ts';
import type { DeferredString } from './config-types.ts';
import type {
  McpGithubTransport,
  McpServerConfig,
  McpSetting,
  McpTransport,
  McpUrlTransport,
} from './mcp-config-types.ts';
import { readBool, readList, readString } from './values.ts';

const MCP_ATTRIBUTES = [
  'command',
  'url',
  'source',
  'version',
  'entry',
  'args',
  'env',
  'headers',
  'client_id',
  'client_secret',
  'client_metadata_url',
  'sampling',
];

/** Names that read like credentials: such `env` and `headers` values are redacted everywhere. */
const CREDENTIAL_NAME =
  /auth|token|secret|passw|api[-_]?key|access[-_]?key|private[-_]?key|cookie|credential|session/i;

/**
 * Decodes an `mcp "NAME"` block: exactly one of `command`, `url`, `source`, and only the
 * attributes that go with it (`mcp-rules.ts`). Values that may carry secrets (`url`, `args`,
 * `env`, `headers`, the OAuth client) stay deferred until the run needs them, so `verify` works
 * without them; nothing is started or contacted here.
 */
export function decodeMcpServer(block: Block, context: DecodeContext): McpServerConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const errorsBefore = context.sink.errorCount;
  const inner = within(context, `mcp "${name}"`);
  const body = checkBody(
    block.body,
    { attributes: MCP_ATTRIBUTES, lenient: { what: 'mcp servers' } },
    inner,
    headerSpan(block),
  );
  const attributes = readMcpAttributes(body.attributes, inner);
  const shape = checkMcpShape(name, block, attributes, inner);
  const sampling = readBool(body.attributes.get('sampling'), inner);
  if (shape === undefined || context.sink.errorCount > errorsBefore) return undefined;
  return {
    name,
    transport: buildTransport(shape, attributes),
    sampling: sampling === true,
    span: block.labelSpans[0] ?? block.span,
  };
}

function buildTransport(shape: McpShape, attributes: McpAttributes): McpTransport {
  const args = attributes.args?.value ?? [];
  const env = attributes.env?.value ?? [];
  switch (shape.kind) {
    case 'command':
      return { kind: 'command', command: shape.command, args, env };
    case 'npm':
      return { kind: 'npm', package: shape.package, version: shape.version, args, env };
    case 'github': {
      const transport: McpGithubTransport = {
        kind: 'github',
        owner: shape.owner,
        repo: shape.repo,
        version: shape.version,
        args,
        env,
      };
      if (attributes.entry !== undefined) transport.entry = attributes.entry.value;
      return transport;
    }
    case 'url': {
      const transport: McpUrlTransport = {
        kind: 'url',
        url: shape.url,
        headers: attributes.headers?.value ?? [],
      };
      if (attributes.clientMetadataUrl !== undefined) {
        transport.clientMetadataUrl = attributes.clientMetadataUrl.value;
      }
      const clientId = attributes.clientId?.value;
      if (clientId !== undefined) {
        transport.oauth = { clientId };
        const clientSecret = attributes.clientSecret?.value;
        if (clientSecret !== undefined) transport.oauth.clientSecret = clientSecret;
      }
      return transport;
    }
  }
}

/**
 * Reads each attribute with its type; an empty string, list or map counts as not set (as in the
 * reference runtime), so `entry = ""` is the same as no `entry`.
 */
function readMcpAttributes(
  attributes: ReadonlyMap<string, Attribute>,
  context: DecodeContext,
): McpAttributes {
  const result: McpAttributes = {};
  const text = (name: string) => {
    const attribute = attributes.get(name);
    const value = attribute && readString(attribute, context);
    return attribute && value ? { value, attribute } : undefined;
  };
  const deferred = (name: string) => {
    const attribute = attributes.get(name);
    const value = attribute && readDeferredString(attribute.value, name, context);
    return attribute && value && literalOf(value) !== '' ? { value, attribute } : undefined;
  };
  const assign = <K extends keyof McpAttributes>(key: K, value: McpAttributes[K] | undefined) => {
    if (value !== undefined) result[key] = value;
  };
  assign('command', text('command'));
  assign('source', text('source'));
  assign('version', text('version'));
  assign('entry', text('entry'));
  assign('clientMetadataUrl', text('client_metadata_url'));
  assign('url', deferred('url'));
  assign('clientId', deferred('client_id'));
  assign('clientSecret', deferred('client_secret'));
  assign('args', readArgs(attributes.get('args'), context));
  assign('env', readSettings(attributes.get('env'), context));
  assign('headers', readSettings(attributes.get('headers'), context));
  return result;
}

function readArgs(attribute: Attribute | undefined, context: DecodeContext): McpAttributes['args'] {
  const items = attribute && readList(attribute, context);
  if (attribute === undefined || items === undefined || items.length === 0) return undefined;
  const value: DeferredString[] = [];
  for (const item of items) {
    const arg = readDeferredString(item, 'each entry of args', context, { primitives: true });
    if (arg !== undefined) value.push(arg);
  }
  return { value, attribute };
}

/** `env` or `headers`: a map of strings (numbers and bools as their text) and `vars.*`. */
function readSettings(
  attribute: Attribute | undefined,
  context: DecodeContext,
): McpAttributes['env'] {
  if (attribute === undefined) return undefined;
  if (attribute.value.kind !== 'object') {
    errorAt(context, attribute.value.span, `${attribute.name} must be a map: { NAME = "value" }`);
    return undefined;
  }
  const value: McpSetting[] = [];
  for (const entry of attribute.value.entries) {
    const setting = readDeferredString(entry.value, `${attribute.name}.${entry.key}`, context, {
      primitives: true,
    });
    if (setting === undefined) continue;
    const secret =
      CREDENTIAL_NAME.test(entry.key) ||
      variablesOf(setting).some((name) => context.variables.get(name)?.secret === true);
    value.push({ name: entry.key, value: setting, secret });
  }
  return value.length > 0 ? { value, attribute } : undefined;
}
