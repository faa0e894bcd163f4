/** The outcome of following a dot path: the value, or the first segment that was missing. */
export type DotPathLookup =
  { found: true; value: unknown } | { found: false; missing: string; at: string };

/** Splits `a.b.0` into segments; the empty path is the root. */
export function splitDotPath(path: string): string[] {
  return path === '' ? [] : path.split('.');
}

/**
 * Follows a dot path (`address.city`, `items.3.name`) into a JSON value: object keys by
 * name, array items by decimal index. Reports the first missing segment and where it was.
 */
export function lookupDotPath(root: unknown, path: string): DotPathLookup {
  let current = root;
  const walked: string[] = [];
  for (const segment of splitDotPath(path)) {
    const next = step(current, segment);
    if (next === undefined) return { found: false, missing: segment, at: walked.join('.') };
    current = next.value;
    walked.push(segment);
  }
  return { found: true, value: current };
}

function step(value: unknown, segment: string): { value: unknown } | undefined {
  if (Array.isArray(value)) {
    if (!/^(0|[1-9]\d*)$/.test(segment)) return undefined;
    const index = Number(segment);
    return index < value.length ? { value: value[index] } : undefined;
  }
  if (typeof value === 'object' && value !== null && Object.hasOwn(value, segment)) {
    return { value: (value as Record<string, unknown>)[segment] };
  }
  return undefined;
}

/** A short type name for messages: `array`, `object`, `string`, `number`, `boolean`, `null`. */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
