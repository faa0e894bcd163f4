import type { Block } from './ast.ts';
import {
  compileFieldBlocks,
  compileInputBlocks,
  compileShorthandSchema,
  type SchemaContext,
} from './schema-helpers/index.ts';
import type { Diagnostic } from '../base/errors.ts';
import { expectNoLabels, singleBlock, type CheckedBody } from './body.ts';
import { errorAt, type DecodeContext } from './context.ts';
import type { ConfigSchema } from './config-types.ts';
import { expandLoads } from './values.ts';

/**
 * Compiles the schema a body declares as its `name` attribute, its `name` block or (a mission's)
 * `input` blocks, reporting a mix of forms (the reference runtime silently preferred one) and
 * adding the block path to the schema compiler's diagnostics.
 */
export function readSchema(
  body: CheckedBody,
  name: string,
  schemaContext: SchemaContext,
  context: DecodeContext,
  inputBlocks: Block[] = [],
): ConfigSchema | undefined {
  const attribute = body.attributes.get(name);
  const blocks = body.blocks.filter((child) => child.type === name);
  const used = [attribute ? 1 : 0, blocks.length > 0 ? 1 : 0, inputBlocks.length > 0 ? 1 : 0];
  if (used.reduce((sum, count) => sum + count, 0) > 1) {
    const second = attribute && blocks[0] ? blocks[0] : inputBlocks[0];
    const span = second?.typeSpan ?? attribute?.nameSpan;
    if (span) {
      errorAt(
        context,
        span,
        `${name} is written in more than one form here; use either the attribute or the blocks`,
      );
    }
    return undefined;
  }
  const block = singleBlock(blocks, name, context);
  for (const each of blocks) expectNoLabels(each, context);
  const path = [...context.path];
  let result: { schema?: ConfigSchema; diagnostics: Diagnostic[] } | undefined;
  if (attribute)
    result = compileShorthandSchema(expandLoads(attribute.value, context), schemaContext, path);
  else if (block) result = compileFieldBlocks(block, schemaContext, path);
  else if (inputBlocks.length > 0) result = compileInputBlocks(inputBlocks, path);
  if (result === undefined) return undefined;
  context.sink.add(
    result.diagnostics.map((diagnostic) =>
      diagnostic.path.length > 0 ? diagnostic : { ...diagnostic, path },
    ),
  );
  if (result.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) return undefined;
  return result.schema;
}
