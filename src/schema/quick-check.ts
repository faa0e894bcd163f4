/**
 * A pass in front of ajv that can only say "valid": for the keywords sortie's generated
 * schemas use (`type`, `items`, `properties`, `required`, `additionalProperties` and the
 * annotations beside them) it walks the value along the schema and answers `true` when the
 * value certainly conforms. Anything else, a failure included, answers `false` and the caller
 * asks ajv, which stays the one authority on problems and their wording. `sortie verify` of a
 * valid project so never loads or compiles ajv (a large part of its cold start), and a
 * conforming tool argument or dataset item is accepted without compiling a validator for it.
 */
import { FILE_MARKER } from './json-schema.ts';

/** Keywords that only annotate: they never make a value invalid. */
const ANNOTATIONS = new Set(['description', 'default', 'title', 'examples', FILE_MARKER]);

/** The keywords this pass understands; a schema with any other keyword is left to ajv. */
const UNDERSTOOD = new Set(['type', 'items', 'properties', 'required', 'additionalProperties']);

/** True when `value` certainly conforms to `schema`; false means "ask ajv". */
export function certainlyValid(schema: unknown, value: unknown): boolean {
  if (schema === true) return true;
  if (!isPlainObject(schema)) return false;
  for (const keyword of Object.keys(schema)) {
    if (!UNDERSTOOD.has(keyword) && !ANNOTATIONS.has(keyword)) return false;
  }
  if (schema.type !== undefined && !typeMatches(schema.type, value)) return false;
  if (Array.isArray(value)) return itemsValid(schema, value);
  if (isPlainObject(value)) return propertiesValid(schema, value);
  // Object keywords on a value that is no plain object: ajv ignores them for primitives, but
  // a class instance or a null-prototype oddity is left to ajv's own reading.
  return typeof value !== 'object' || value === null;
}

function typeMatches(type: unknown, value: unknown): boolean {
  if (typeof type === 'string') return oneTypeMatches(type, value);
  if (!Array.isArray(type)) return false;
  return type.some((entry) => typeof entry === 'string' && oneTypeMatches(entry, value));
}

/** JSON Schema's types as ajv tests them; NaN and the infinities are left to ajv. */
function oneTypeMatches(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isPlainObject(value);
    default:
      return false;
  }
}

function itemsValid(schema: Record<string, unknown>, value: readonly unknown[]): boolean {
  if (schema.items === undefined) return true;
  for (const item of value) {
    if (!certainlyValid(schema.items, item)) return false;
  }
  return true;
}

function propertiesValid(schema: Record<string, unknown>, value: Record<string, unknown>): boolean {
  const properties = schema.properties ?? {};
  if (!isPlainObject(properties)) return false;
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required)) return false;
    for (const name of schema.required) {
      if (typeof name !== 'string' || !Object.hasOwn(value, name)) return false;
      if (value[name] === undefined) return false;
    }
  }
  for (const name of Object.keys(properties)) {
    // ajv reads `value[name]`: a declared `toString` absent from the value finds the inherited one.
    if (!Object.hasOwn(value, name) && value[name] !== undefined) return false;
  }
  const additional = schema.additionalProperties ?? true;
  for (const name of Object.keys(value)) {
    const entry = value[name];
    if (Object.hasOwn(properties, name)) {
      if (entry !== undefined && !certainlyValid(properties[name], entry)) return false;
    } else if (additional === false || !certainlyValid(additional, entry)) {
      return false;
    }
  }
  return true;
}

/**
 * An object literal or JSON value: its prototype is Object.prototype or null, so `for … in`
 * (what ajv's generated code iterates) sees exactly its own keys.
 */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
