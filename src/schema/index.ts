/** Schema helpers → JSON Schema, validation problems and defaults: the public names of src/schema. */
export type { SchemaContext } from './field-spec.ts';
export type { SchemaField, CompiledSchema, JsonSchema } from './json-schema.ts';
export { FILE_MARKER } from './json-schema.ts';
export type { CompileResult } from './compile.ts';
export { compileShorthandSchema, compileFieldBlocks, compileInputBlocks } from './compile.ts';
export type { ConstantResult } from './constant-value.ts';
export { constantValue } from './constant-value.ts';
export type { Problem } from './validate.ts';
export { validateValue, formatProblem, FILE_SHAPE_MESSAGE } from './validate.ts';
export { applyDefaults } from './defaults.ts';
export { ajv } from './ajv.ts';
export { describeSchemaForPrompt } from './describe.ts';
