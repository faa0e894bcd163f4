/**
 * Value rules shared by `query_task_output` filters, ordering and aggregates: dot paths,
 * numeric strings, code-point string order, deep equality and a stable order of mixed values.
 */
import type { IterationRecord } from './knowledge-store.ts';

/** Fields that address the record itself rather than its output. */
const RECORD_FIELDS = new Set(['index', 'item_id', 'status']);

/** Follows a dot path (`address.city`, `tags.0`) into a JSON value; undefined when missing. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const segment of path.split('.')) {
    if (Array.isArray(current)) {
      if (!/^\d+$/.test(segment)) return undefined;
      current = current[Number(segment)];
    } else if (current !== null && typeof current === 'object') {
      if (!Object.hasOwn(current, segment)) return undefined;
      current = (current as Record<string, unknown>)[segment];
    } else {
      return undefined;
    }
  }
  return current;
}

/**
 * The value a field names in a record: `index`, `item_id`, `status` address the record, any
 * other path reads the output. Models see records as `{..., output: {...}}`, so a path that
 * starts with `output.` falls back to the record when the output has no `output` field.
 */
export function readField(record: IterationRecord, field: string): unknown {
  if (RECORD_FIELDS.has(field)) return record[field as 'index' | 'item_id' | 'status'];
  const value = readPath(record.output, field);
  if (value === undefined && field.startsWith('output.')) {
    const output = record.output;
    const hasOwnOutputField =
      output !== null && typeof output === 'object' && Object.hasOwn(output, 'output');
    if (!hasOwnOutputField) return readPath(output, field.slice('output.'.length));
  }
  return value;
}

/** The number a numeric string spells (decimal only), else undefined. */
export function numericString(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * Both sides as numbers when one is a number and the other a number or a numeric string;
 * undefined when the pair is not numeric.
 */
export function numericPair(left: unknown, right: unknown): [number, number] | undefined {
  if (typeof left !== 'number' && typeof right !== 'number') return undefined;
  const asNumber = (value: unknown): number | undefined =>
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? numericString(value)
        : undefined;
  const a = asNumber(left);
  const b = asNumber(right);
  return a === undefined || b === undefined ? undefined : [a, b];
}

/** Compares strings by Unicode code point (JS `<` compares UTF-16 code units). */
export function compareCodePoints(left: string, right: string): number {
  const leftPoints = Array.from(left, (char) => char.codePointAt(0) ?? 0);
  const rightPoints = Array.from(right, (char) => char.codePointAt(0) ?? 0);
  const length = Math.min(leftPoints.length, rightPoints.length);
  for (let position = 0; position < length; position += 1) {
    const difference = (leftPoints[position] ?? 0) - (rightPoints[position] ?? 0);
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  return Math.sign(leftPoints.length - rightPoints.length);
}

/** A canonical JSON text: equal for deeply equal values whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    const body = keys.map(
      (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
    );
    return `{${body.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Deep equality of JSON values. */
export function deepEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object') return false;
  return canonicalJson(left) === canonicalJson(right);
}

/** Equality as filters see it: numbers also equal their numeric strings, else deep equality. */
export function valuesEqual(left: unknown, right: unknown): boolean {
  const numbers = numericPair(left, right);
  if (numbers !== undefined) return numbers[0] === numbers[1];
  return deepEqual(left, right);
}

/** Rank of a value's type in `order_by`: numbers, strings, booleans, then objects and arrays. */
function typeRank(value: unknown): number {
  if (typeof value === 'number') return 0;
  if (typeof value === 'string') return 1;
  if (typeof value === 'boolean') return 2;
  return 3;
}

/** Whether `order_by` treats a value as missing (sorted last in either direction). */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** Orders two present values for `order_by`; values of different types order by type. */
export function compareForOrder(left: unknown, right: unknown): number {
  const rankDifference = typeRank(left) - typeRank(right);
  if (rankDifference !== 0) return Math.sign(rankDifference);
  if (typeof left === 'number' && typeof right === 'number') return Math.sign(left - right);
  if (typeof left === 'string' && typeof right === 'string') return compareCodePoints(left, right);
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  return 0;
}

/** A JSON type name for messages. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A short rendering of a value for error messages. */
export function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return `${typeName(value)} ${shown}`;
}
