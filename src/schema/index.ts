/** JSON Schema, the one validation path and its problem wording, defaults and prompt descriptions. */
export type { CompiledSchema } from './json-schema.ts';
export { FILE_MARKER } from './json-schema.ts';
export type { Problem } from './problem-text.ts';
export { formatProblem } from './problem-text.ts';
export type { Validation, ItemsValidation } from './validate.ts';
export { validate, validateItems } from './validate.ts';
export { describeSchemaForPrompt } from './describe.ts';
