/**
 * Fills every missing property that has a `default` in a schema, at every depth: object
 * properties, map values and list items. A default that is itself an object gets its own
 * nested defaults too. Only missing (undefined) properties are filled; an explicit `null` is
 * the caller's value and is left for validation to judge.
 *
 * Each schema is read once: `compileDefaults` turns it into a filler that visits only the
 * places where a default can apply (none at all for most tool schemas), so a tool call does
 * not walk the schema again or copy arguments it will not change.
 */
import { perObject } from '../base/per-object.ts';
import { setOwn } from '../base/own-property.ts';

/** Fills the defaults of one schema into a value, in place. */
type Filler = (value: unknown) => void;

/** A property of an object schema that has a default or holds one deeper down. */
interface PropertyFiller {
  name: string;
  hasDefault: boolean;
  defaultValue: unknown;
  nested: Filler | undefined;
}

/** Returns a copy of `value` with the schema's defaults filled in. */
export function applyDefaults(schema: Record<string, unknown>, value: unknown): unknown {
  const copy = structuredClone(value);
  compiledDefaults(schema)?.(copy);
  return copy;
}

/** Fills the schema's defaults into `value` itself (a value the caller owns, e.g. just parsed). */
export function fillDefaults(schema: Record<string, unknown>, value: unknown): unknown {
  compiledDefaults(schema)?.(value);
  return value;
}

/**
 * The schema's filler, compiled once per schema object; `null` when it has no default
 * anywhere.
 */
const compiledDefaults = perObject(
  (schema: Record<string, unknown>): Filler | null => compile(schema) ?? null,
);

function compile(schema: unknown): Filler | undefined {
  if (!isRecord(schema)) return undefined;
  const items = compile(schema.items);
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const propertyFillers: PropertyFiller[] = [];
  for (const [name, propertySchema] of Object.entries(properties)) {
    const hasDefault = isRecord(propertySchema) && 'default' in propertySchema;
    const nested = compile(propertySchema);
    if (!hasDefault && nested === undefined) continue;
    const defaultValue = hasDefault ? propertySchema.default : undefined;
    propertyFillers.push({ name, hasDefault, defaultValue, nested });
  }
  const additional = compile(schema.additionalProperties);
  if (items === undefined && propertyFillers.length === 0 && additional === undefined) {
    return undefined;
  }
  return (value) => {
    if (Array.isArray(value)) {
      if (items !== undefined) for (const item of value) items(item);
      return;
    }
    if (!isRecord(value)) return;
    for (const property of propertyFillers) fillProperty(value, property);
    if (additional === undefined) return;
    for (const [name, entry] of Object.entries(value)) {
      if (!Object.hasOwn(properties, name)) additional(entry);
    }
  };
}

function fillProperty(value: Record<string, unknown>, property: PropertyFiller): void {
  // Own properties only: an inherited `__proto__` or `toString` is not a given value.
  let current = Object.hasOwn(value, property.name) ? value[property.name] : undefined;
  if (current === undefined && property.hasDefault) {
    const given = property.defaultValue;
    // Each value gets its own copy of an object default, never the schema's.
    current = typeof given === 'object' && given !== null ? structuredClone(given) : given;
    setOwn(value, property.name, current);
  }
  if (current !== undefined) property.nested?.(current);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
