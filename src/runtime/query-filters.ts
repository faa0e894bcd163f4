/**
 * `query_task_output` filters: `{field, op, value}` conditions that must all match a record.
 * A rule a model broke comes back as a `QueryArgumentError` whose text says what to do.
 */
import { SortieError } from '../base/errors.ts';
import type { IterationRecord } from './knowledge-store.ts';
import {
  compareCodePoints,
  describeValue,
  numericPair,
  readField,
  typeName,
  valuesEqual,
} from './query-values.ts';

/** The filter operators, in the order error messages list them. */
export const FILTER_OPS = ['eq', 'ne', 'gt', 'lt', 'gte', 'lte', 'contains'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** One filter condition as the model sends it. */
export interface QueryFilter {
  field: string;
  op: string;
  value?: unknown;
}

/** A query the model must change; the message is the tool's error text. */
export class QueryArgumentError extends SortieError {}

const ORDERING_OPS = new Set<string>(['gt', 'lt', 'gte', 'lte']);

/** Checks what can be checked before looking at any record. */
export function checkFilters(filters: readonly QueryFilter[]): void {
  filters.forEach((filter, position) => {
    const label = `filter ${position}`;
    if (typeof filter.field !== 'string' || filter.field === '') {
      throw new QueryArgumentError(`${label}: "field" must be a non-empty dot path`);
    }
    if (!(FILTER_OPS as readonly string[]).includes(filter.op)) {
      throw new QueryArgumentError(
        `${label}: unknown op "${String(filter.op)}"; use one of ${FILTER_OPS.join(', ')}`,
      );
    }
    if (filter.value === undefined) {
      throw new QueryArgumentError(`${label}: "value" is required`);
    }
    if (ORDERING_OPS.has(filter.op)) {
      if (typeof filter.value === 'boolean') {
        throw new QueryArgumentError(
          `${label}: booleans can only be compared with eq or ne, not "${filter.op}"`,
        );
      }
      if (typeof filter.value !== 'number' && typeof filter.value !== 'string') {
        throw new QueryArgumentError(
          `${label}: "${filter.op}" needs a number or string value, got ${typeName(filter.value)}`,
        );
      }
    }
  });
}

/** Whether a record matches every filter (filters already checked). */
export function matchesAll(record: IterationRecord, filters: readonly QueryFilter[]): boolean {
  return filters.every((filter, position) => matchesFilter(record, filter, position));
}

function matchesFilter(record: IterationRecord, filter: QueryFilter, position: number): boolean {
  const actual = readField(record, filter.field);
  if (actual === undefined) return filter.op === 'ne';
  const op = filter.op as FilterOp;
  if (op === 'eq') return valuesEqual(actual, filter.value);
  if (op === 'ne') return !valuesEqual(actual, filter.value);
  // null has no order and no contents: it matches nothing but eq/ne, like a missing value.
  if (actual === null) return false;
  if (op === 'contains') return contains(actual, filter, record, position);
  return compareOrdered(actual, filter, record, position);
}

function contains(
  actual: unknown,
  filter: QueryFilter,
  record: IterationRecord,
  position: number,
): boolean {
  if (Array.isArray(actual)) return actual.some((member) => valuesEqual(member, filter.value));
  if (typeof actual === 'string') {
    if (typeof filter.value !== 'string') {
      throw new QueryArgumentError(
        `filter ${position}: "contains" on string field "${filter.field}" needs a string value, got ${typeName(filter.value)}`,
      );
    }
    return actual.includes(filter.value);
  }
  throw new QueryArgumentError(
    `filter ${position}: "contains" works on strings and arrays, but "${filter.field}" is ${describeValue(actual)} in item ${record.index}; use eq, ne, gt, lt, gte or lte`,
  );
}

function compareOrdered(
  actual: unknown,
  filter: QueryFilter,
  record: IterationRecord,
  position: number,
): boolean {
  const order = orderOf(actual, filter.value);
  if (order === undefined) {
    const hint = orderingHint(actual);
    throw new QueryArgumentError(
      `filter ${position}: cannot compare "${filter.field}" (${describeValue(actual)} in item ${record.index}) with ${describeValue(filter.value)} using "${filter.op}"; ${hint}`,
    );
  }
  switch (filter.op) {
    case 'gt':
      return order > 0;
    case 'lt':
      return order < 0;
    case 'gte':
      return order >= 0;
    default:
      return order <= 0;
  }
}

/** What to do instead of ordering a value of this type. */
function orderingHint(actual: unknown): string {
  switch (typeName(actual)) {
    case 'boolean':
      return 'booleans can only be compared with eq or ne';
    case 'array':
      return 'arrays can only be compared with eq, ne or contains';
    case 'object':
      return 'objects can only be compared with eq or ne; filter on one of their fields with a dot path';
    default:
      return `use a ${typeName(actual)} value or filter on another field`;
  }
}

/** -1, 0 or 1 for comparable pairs (numbers, numeric strings, two strings); else undefined. */
function orderOf(actual: unknown, expected: unknown): number | undefined {
  const numbers = numericPair(actual, expected);
  if (numbers !== undefined) return Math.sign(numbers[0] - numbers[1]);
  if (typeof actual === 'string' && typeof expected === 'string') {
    return compareCodePoints(actual, expected);
  }
  return undefined;
}
