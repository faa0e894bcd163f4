import type { Block } from './ast.ts';
import { blockName, checkBody, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import type { PacketConfig } from './config-types.ts';
import { readString } from './values.ts';

/**
 * Decodes a `packet "NAME" { path, description }` block. `path` is a folder inside the project,
 * written relative to the declaring file or as `@/PATH` from the project root; it must exist.
 */
export function decodePacket(block: Block, context: DecodeContext): PacketConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `packet "${name}"`);
  const body = checkBody(
    block.body,
    { attributes: ['path', 'description'], required: ['path'] },
    inner,
    headerSpan(block),
  );
  const pathAttribute = body.attributes.get('path');
  const requested = readString(pathAttribute, inner);
  const description = readString(body.attributes.get('description'), inner);
  if (pathAttribute === undefined || requested === undefined) return undefined;
  const folder = inner.resolveFolder(block.span.file, requested);
  if (!folder.ok) return errorAt(inner, pathAttribute.value.span, folder.message);
  const packet: PacketConfig = {
    name,
    path: folder.relativePath,
    span: block.labelSpans[0] ?? block.span,
  };
  if (description) packet.description = description;
  return packet;
}
