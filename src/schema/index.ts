/** JSON Schema, the one validation path and its problem wording, defaults and prompt descriptions. */
export type { SchemaField, CompiledSchema, JsonSchema } from './json-schema.ts';
export { FILE_MARKER } from './json-schema.ts';
export type { Problem } from './problem-text.ts';
export { formatProblem, FILE_SHAPE_MESSAGE } from './problem-text.ts';
export type { ValidateOptions, Validation, ItemsValidation } from './validate.ts';
export { validate, validateItems } from './validate.ts';
export { applyDefaults } from './defaults.ts';
export { describeSchemaForPrompt } from './describe.ts';
