import type { Block, Expr } from '../ast.ts';
import type { Diagnostic } from '../../base/errors.ts';
import type { FieldSpec, SchemaContext } from './field-spec.ts';
import { checkFieldRules } from './field-rules.ts';
import { readFieldBlocks, readNamedBlock } from './field-blocks.ts';
import type { CompiledSchema } from '../../schema/json-schema.ts';
import { compileFields } from './to-json-schema.ts';
import { SchemaReader } from './schema-reader.ts';
import { readFieldEntries } from './shorthand.ts';

/** A compilation's outcome: the schema when there were no errors, and every diagnostic. */
export interface CompileResult {
  schema?: CompiledSchema;
  diagnostics: Diagnostic[];
}

/** The attribute each context's shorthand is written as, for messages. */
const ATTRIBUTE_NAMES: Record<SchemaContext, string> = {
  tool_inputs: 'inputs',
  mission_inputs: 'inputs',
  task_output: 'output',
  dataset_schema: 'schema',
};

/** Compiles the shorthand form: `inputs = { name = string("Name", true), ... }`. */
export function compileShorthandSchema(
  expr: Expr,
  context: SchemaContext,
  path: string[],
): CompileResult {
  const reader = new SchemaReader(path);
  if (expr.kind !== 'object') {
    reader.error(
      expr.span,
      `${ATTRIBUTE_NAMES[context]} must be an object of fields, e.g. { name = string("Name", true) }`,
    );
    return { diagnostics: reader.diagnostics };
  }
  return finish(readFieldEntries(expr.entries, reader), context, reader);
}

/** Compiles the verbose form: an `inputs {}`/`output {}`/`schema {}` block of `field` blocks. */
export function compileFieldBlocks(
  block: Block,
  context: SchemaContext,
  path: string[],
): CompileResult {
  const reader = new SchemaReader(path);
  for (const attribute of block.body.attributes) {
    reader.error(
      attribute.nameSpan,
      `unknown attribute "${attribute.name}" in ${block.type}: declare fields as field "NAME" { ... } blocks`,
    );
  }
  return finish(readFieldBlocks(block.body.blocks, block.type, reader), context, reader);
}

/**
 * Compiles mission-level `input "NAME" { type, description, default, protected }` blocks.
 * As in the reference runtime, an input block without `required` is required unless it has a
 * default (the helper form stays optional unless `true` is given).
 */
export function compileInputBlocks(blocks: Block[], path: string[]): CompileResult {
  const reader = new SchemaReader(path);
  const names = new Set<string>();
  const fields: FieldSpec[] = [];
  for (const block of blocks) {
    const field = readNamedBlock(block, names, 'unless-default', reader);
    if (field !== undefined) fields.push(field);
  }
  return finish(fields, 'mission_inputs', reader);
}

function finish(fields: FieldSpec[], context: SchemaContext, reader: SchemaReader): CompileResult {
  checkFieldRules(fields, context, reader);
  if (reader.failed) return { diagnostics: reader.diagnostics };
  return { schema: compileFields(fields), diagnostics: reader.diagnostics };
}
