/** Field specs → JSON Schema 2020-12: the single function both schema syntaxes compile through. */
import type { CompiledSchema, JsonSchema, SchemaField } from '../../schema/json-schema.ts';
import { FILE_MARKER } from '../../schema/json-schema.ts';
import type { FieldSpec, TypeSpec } from './field-spec.ts';
import { displayType } from './field-spec.ts';
import { setOwn } from '../../base/own-property.ts';

/**
 * A file input's value: `{ path }` or `{ base64, filename }`, exactly one of the two shapes.
 * The CLI turns `@PATH` and `base64:DATA` into these objects before validation.
 */
function fileSchema(): JsonSchema {
  return {
    type: 'object',
    [FILE_MARKER]: true,
    properties: {
      path: { type: 'string', minLength: 1 },
      base64: { type: 'string' },
      filename: { type: 'string', minLength: 1 },
    },
    additionalProperties: false,
    oneOf: [{ required: ['path'] }, { required: ['base64', 'filename'] }],
  };
}

/** The JSON Schema of a type, without the field-level keywords (description, default). */
export function typeToJsonSchema(type: TypeSpec): JsonSchema {
  switch (type.kind) {
    case 'string':
    case 'number':
    case 'integer':
      return { type: type.kind };
    case 'bool':
      return { type: 'boolean' };
    case 'any':
      return {};
    case 'any_primitive':
      return { type: ['string', 'number', 'integer', 'boolean'] };
    case 'file':
      return fileSchema();
    case 'list':
      return { type: 'array', items: typeToJsonSchema(type.items) };
    case 'map':
      return { type: 'object', additionalProperties: typeToJsonSchema(type.values) };
    case 'object':
      return objectSchema(type.properties);
  }
}

/**
 * A closed object: declared properties in declaration order, required ones listed in that
 * order, and no others. Closed in every context so a typo in `--input`, a dataset item or a
 * model's output is reported instead of silently dropped.
 */
export function objectSchema(fields: readonly FieldSpec[]): JsonSchema {
  const properties: JsonSchema = {};
  for (const field of fields) {
    setOwn(properties, field.name, fieldToJsonSchema(field));
  }
  const required = fields.filter((field) => field.required).map((field) => field.name);
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return schema;
}

/** A field's schema: its type plus description and default. */
export function fieldToJsonSchema(field: FieldSpec): JsonSchema {
  const schema = typeToJsonSchema(field.type);
  if (field.description !== undefined) schema.description = field.description;
  if (field.default !== undefined) schema.default = field.default.value;
  return schema;
}

/** The compiled result for a list of top-level fields. */
export function compileFields(fields: readonly FieldSpec[]): CompiledSchema {
  return { jsonSchema: objectSchema(fields), fields: fields.map(toSchemaField) };
}

function toSchemaField(field: FieldSpec): SchemaField {
  const result: SchemaField = {
    name: field.name,
    type: displayType(field.type),
    required: field.required,
    protected: field.protected?.value === true,
    file: field.type.kind === 'file',
  };
  if (field.description !== undefined) result.description = field.description;
  if (field.default !== undefined) result.default = field.default.value;
  return result;
}
