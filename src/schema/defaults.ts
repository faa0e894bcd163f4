/**
 * Returns a copy of `value` with every missing property that has a `default` in `schema`
 * filled in, at every depth: object properties, map values and list items. A default that is
 * itself an object gets its own nested defaults too. Only missing (undefined) properties are
 * filled; an explicit `null` is the caller's value and is left for validation to judge.
 */
export function applyDefaults(schema: Record<string, unknown>, value: unknown): unknown {
  const copy = structuredClone(value);
  fill(schema, copy);
  return copy;
}

function fill(schema: unknown, value: unknown): void {
  if (!isRecord(schema)) return;
  if (Array.isArray(value)) {
    for (const item of value) fill(schema.items, item);
    return;
  }
  if (!isRecord(value)) return;
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [name, propertySchema] of Object.entries(properties)) {
    // Own properties only: an inherited `__proto__` or `toString` is not a given value.
    let current = Object.hasOwn(value, name) ? value[name] : undefined;
    if (current === undefined && isRecord(propertySchema) && 'default' in propertySchema) {
      current = structuredClone(propertySchema.default);
      Object.defineProperty(value, name, {
        value: current,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (current !== undefined) fill(propertySchema, current);
  }
  if (isRecord(schema.additionalProperties)) {
    for (const [name, entry] of Object.entries(value)) {
      if (!Object.hasOwn(properties, name)) fill(schema.additionalProperties, entry);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
