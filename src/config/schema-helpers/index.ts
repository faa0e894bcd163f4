/** Schema helpers (shorthand and field blocks) → field specs → JSON Schema: compiled by config. */
export type { SchemaContext } from './field-spec.ts';
export { compileShorthandSchema, compileFieldBlocks, compileInputBlocks } from './compile.ts';
export { constantValue } from './constant-value.ts';
