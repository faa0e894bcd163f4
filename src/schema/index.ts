/** JSON Schema, the shared ajv instance, validation problems, defaults and prompt descriptions. */
export type { SchemaField, CompiledSchema, JsonSchema } from './json-schema.ts';
export { FILE_MARKER } from './json-schema.ts';
export type { Problem } from './validate.ts';
export { validateValue, formatProblem, FILE_SHAPE_MESSAGE } from './validate.ts';
export { applyDefaults } from './defaults.ts';
export { ajv } from './ajv.ts';
export { describeSchemaForPrompt } from './describe.ts';
