/** A JSON Schema (2020-12) document or subschema. */
export type JsonSchema = Record<string, unknown>;

/** One top-level field as the rest of sortie sees it (prompts, CLI input parsing, masking). */
export interface SchemaField {
  name: string;
  /** Display type, e.g. `string`, `list(object)`, `map(number)`, `file`. */
  type: string;
  description?: string;
  required: boolean;
  protected: boolean;
  file: boolean;
  default?: unknown;
}

/** A compiled schema: the JSON Schema ajv validates with, and its fields in declaration order. */
export interface CompiledSchema {
  jsonSchema: JsonSchema;
  fields: SchemaField[];
}

/** The keyword marking a file input's schema; the runtime looks for it, ajv ignores it. */
export const FILE_MARKER = 'x-sortie-file';
