/**
 * JSON Schema → the Gemini API's schema dialect (an OpenAPI 3.0 subset), pure. Rules, each
 * tested: types upper-cased; `["x", "null"]` → `nullable: true`; several types → `anyOf`;
 * `oneOf` → `anyOf` and a `null` member of either → `nullable`; enums stringified and typed
 * STRING (the API allows enums on strings only); `const` → a one-value enum; `format` kept only
 * where the API supports it; count limits sent as int64 strings; every keyword the dialect
 * lacks dropped; applied recursively to `properties`, `items` and `anyOf`.
 */
import { Type, type Schema } from '@google/genai';

type JsonSchema = Record<string, unknown>;

const TYPES: Readonly<Record<string, Type>> = {
  string: Type.STRING,
  number: Type.NUMBER,
  integer: Type.INTEGER,
  boolean: Type.BOOLEAN,
  array: Type.ARRAY,
  object: Type.OBJECT,
  null: Type.NULL,
};

/** Formats the API accepts, per type; others are rejected with a 400, so they are dropped. */
const SUPPORTED_FORMATS: Readonly<Partial<Record<Type, ReadonlySet<string>>>> = {
  [Type.STRING]: new Set(['enum', 'date-time']),
  [Type.NUMBER]: new Set(['float', 'double']),
  [Type.INTEGER]: new Set(['int32', 'int64']),
};

/** Keywords copied as they are (Gemini's Schema has them with the same meaning). */
const COPIED = [
  'title',
  'description',
  'default',
  'pattern',
  'minimum',
  'maximum',
  'propertyOrdering',
] as const;

/** Count limits, which the dialect types as int64 and so as decimal strings. */
const COUNTS = [
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
] as const;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNullSchema(value: unknown): boolean {
  return isSchema(value) && value.type === 'null' && Object.keys(value).length === 1;
}

function stringifyEnumValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Applies `type` (a name or a list of names) to the converted schema. */
function applyType(result: Schema, type: unknown): void {
  const names = (Array.isArray(type) ? type : [type]).filter(
    (name): name is string => typeof name === 'string' && TYPES[name] !== undefined,
  );
  const concrete = names.filter((name) => name !== 'null');
  if (names.length > 1 && names.includes('null')) result.nullable = true;
  if (concrete.length === 1) result.type = TYPES[concrete[0]!];
  else if (concrete.length > 1) result.anyOf = concrete.map((name) => ({ type: TYPES[name] }));
  else if (names.length === 1) result.type = Type.NULL;
}

/** `anyOf`/`oneOf` members, with a bare `null` member turned into `nullable`. */
function applyAlternatives(result: Schema, members: unknown[]): void {
  const concrete = members.filter((member) => !isNullSchema(member));
  if (concrete.length < members.length) result.nullable = true;
  const converted = concrete.filter(isSchema).map(toGeminiSchema);
  if (converted.length === 1 && result.type === undefined) {
    // One alternative left (`X | null`): it becomes the schema itself, keeping what is already set.
    const own = { ...result };
    Object.assign(result, converted[0], own);
  } else if (converted.length > 0) result.anyOf = [...(result.anyOf ?? []), ...converted];
}

function applyEnum(result: Schema, values: unknown[]): void {
  const concrete = values.filter((value) => value !== null);
  if (concrete.length < values.length) result.nullable = true;
  result.enum = concrete.map(stringifyEnumValue);
  result.type = Type.STRING;
}

function applyFormat(result: Schema, format: unknown): void {
  if (typeof format !== 'string' || result.type === undefined) return;
  if (result.enum !== undefined) return;
  if (SUPPORTED_FORMATS[result.type]?.has(format) === true) result.format = format;
}

/** Converts one JSON Schema (and its subschemas) to Gemini's dialect. */
export function toGeminiSchema(schema: JsonSchema): Schema {
  const result: Schema = {};
  applyType(result, schema.type);
  const alternatives = [schema.anyOf, schema.oneOf].filter(Array.isArray).flat();
  if (alternatives.length > 0) applyAlternatives(result, alternatives);
  if (Array.isArray(schema.enum)) applyEnum(result, schema.enum);
  else if ('const' in schema) applyEnum(result, [schema.const]);
  applyFormat(result, schema.format);
  for (const key of COPIED) {
    if (schema[key] !== undefined) (result as Record<string, unknown>)[key] = schema[key];
  }
  for (const key of COUNTS) {
    const value = schema[key];
    if (typeof value === 'number') result[key] = String(value);
  }
  if (isSchema(schema.properties)) {
    const properties: Record<string, Schema> = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      if (isSchema(property)) properties[name] = toGeminiSchema(property);
    }
    result.properties = properties;
  }
  if (Array.isArray(schema.required)) {
    result.required = schema.required.filter((name): name is string => typeof name === 'string');
  }
  if (isSchema(schema.items)) result.items = toGeminiSchema(schema.items);
  return result;
}
