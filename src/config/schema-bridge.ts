import type { Attribute, Block } from './ast.ts';
import {
  compileFieldBlocks,
  compileInputBlocks,
  compileShorthandSchema,
  type SchemaContext,
} from './schema-helpers/index.ts';
import type { Diagnostic } from '../base/errors.ts';
import { expectNoLabels } from './body.ts';
import type { DecodeContext } from './context.ts';
import type { ConfigSchema } from './config-types.ts';
import { expandLoads } from './values.ts';

/** The forms a schema may be written in at one place; at most one may be used. */
export interface SchemaForms {
  /** `inputs = {...}` */
  attribute?: Attribute;
  /** `inputs { field "x" {...} }` */
  blocks: Block[];
  /** Mission-level `input "x" {...}` blocks. */
  inputBlocks?: Block[];
}

/**
 * Compiles a schema written in any of its forms, reporting a mix of forms (the reference
 * runtime silently preferred one) and adding the block path to the schema compiler's diagnostics.
 */
export function readSchema(
  forms: SchemaForms,
  schemaContext: SchemaContext,
  name: string,
  context: DecodeContext,
): ConfigSchema | undefined {
  const inputBlocks = forms.inputBlocks ?? [];
  const used = [
    forms.attribute ? 1 : 0,
    forms.blocks.length > 0 ? 1 : 0,
    inputBlocks.length > 0 ? 1 : 0,
  ];
  if (used.reduce((sum, count) => sum + count, 0) > 1) {
    const second = forms.attribute && forms.blocks[0] ? forms.blocks[0] : inputBlocks[0];
    const span = second?.typeSpan ?? forms.attribute?.nameSpan;
    if (span) {
      context.sink.error(
        span,
        `${name} is written in more than one form here; use either the attribute or the blocks`,
        context.path,
      );
    }
    return undefined;
  }
  for (const duplicate of forms.blocks.slice(1)) {
    context.sink.error(
      duplicate.typeSpan,
      `duplicate \`${duplicate.type}\` block: only one is allowed here`,
      context.path,
    );
  }
  for (const block of forms.blocks) expectNoLabels(block, context);
  const path = [...context.path];
  let result: { schema?: ConfigSchema; diagnostics: Diagnostic[] } | undefined;
  const [block] = forms.blocks;
  if (forms.attribute)
    result = compileShorthandSchema(
      expandLoads(forms.attribute.value, context),
      schemaContext,
      path,
    );
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
