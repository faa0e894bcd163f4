/**
 * The reference runtime's `mcp_host { enabled, port, secret }` block: the project's missions
 * served over MCP (Streamable HTTP at `/mcp`, on a port of its own) while `sortie serve` runs.
 * One per project; the port defaults to the reference's 8090 and stays within its range.
 */
import type { Block } from './ast.ts';
import { checkBody, expectNoLabels, singleBlock } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import type { McpHostConfig } from './serve-config-types.ts';
import { readServerSecret } from './decode-secret.ts';
import { readBool, readNumber } from './values.ts';

/** The reference runtime's port when the block names none. */
export const DEFAULT_MCP_HOST_PORT = 8090;

/** The reference's port range: no privileged ports. */
const PORT_RANGE = { min: 1024, max: 65535 };

/** Decodes the project's `mcp_host` block (a second one is an error); undefined when absent or bad. */
export function decodeMcpHost(
  blocks: readonly Block[],
  context: DecodeContext,
): McpHostConfig | undefined {
  const block = singleBlock(blocks, 'mcp_host', context);
  if (block === undefined || !expectNoLabels(block, context)) return undefined;
  const inner = within(context, 'mcp_host');
  const body = checkBody(
    block.body,
    { attributes: ['enabled', 'port', 'secret'] },
    inner,
    block.typeSpan,
  );
  const enabledAttribute = body.attributes.get('enabled');
  const portAttribute = body.attributes.get('port');
  const enabled = enabledAttribute === undefined ? false : readBool(enabledAttribute, inner);
  const port =
    portAttribute === undefined
      ? DEFAULT_MCP_HOST_PORT
      : readNumber(portAttribute, inner, { integer: true, min: PORT_RANGE.min });
  if (enabled === undefined || port === undefined) return undefined;
  if (port > PORT_RANGE.max && portAttribute !== undefined) {
    return errorAt(inner, portAttribute.value.span, `port must be ${PORT_RANGE.max} or less`);
  }
  const host: McpHostConfig = { enabled, port, span: block.typeSpan };
  const secretAttribute = body.attributes.get('secret');
  if (secretAttribute === undefined) return host;
  const secret = readServerSecret(secretAttribute, inner);
  if (secret === undefined) return undefined;
  return 'unsetVariable' in secret
    ? { ...host, unsetSecretVariable: secret.unsetVariable }
    : { ...host, secret: secret.secret };
}
