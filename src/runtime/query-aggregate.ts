/**
 * `query_task_output` aggregates over the filtered records (paging does not apply):
 * count, sum, avg, min, max, distinct, and group_by with a per-group op.
 */
import type { IterationRecord } from './knowledge-store.ts';
import { QueryArgumentError } from './query-filters.ts';
import { canonicalJson, compareCodePoints, readField } from './query-values.ts';

export const AGGREGATE_OPS = ['count', 'sum', 'avg', 'min', 'max', 'distinct', 'group_by'] as const;
export const GROUP_OPS = ['count', 'sum', 'avg', 'min', 'max'] as const;
type GroupOp = (typeof GROUP_OPS)[number];

/** The `aggregate` argument as the model sends it. */
export interface QueryAggregate {
  op: string;
  field?: string;
  group_by?: string;
  group_op?: string;
}

/** The aggregate's result fields, merged into the tool's ok result. */
export function runAggregate(
  records: readonly IterationRecord[],
  spec: QueryAggregate,
): Record<string, unknown> {
  if (!(AGGREGATE_OPS as readonly string[]).includes(spec.op)) {
    throw new QueryArgumentError(
      `unknown aggregate op "${String(spec.op)}"; use one of ${AGGREGATE_OPS.join(', ')}`,
    );
  }
  if (spec.op === 'group_by') return groupBy(records, spec);
  if (spec.group_by !== undefined || spec.group_op !== undefined) {
    throw new QueryArgumentError(
      `"group_by" and "group_op" need aggregate op "group_by"; for example {"op":"group_by","group_by":"city","group_op":"${spec.op}","field":"${spec.field ?? 'FIELD'}"}`,
    );
  }
  if (spec.op === 'count') return { result: records.length };
  const field = requireField(spec.op, spec.field);
  switch (spec.op) {
    case 'sum':
    case 'avg': {
      const { values, skipped } = numbersAt(records, field);
      const sum = values.reduce((total, value) => total + value, 0);
      const result = spec.op === 'sum' ? sum : values.length === 0 ? null : sum / values.length;
      return { result, skipped };
    }
    case 'min':
    case 'max': {
      const best = extreme(records, field, spec.op);
      return best === undefined
        ? { result: null, item: null }
        : { result: best.value, item: best.record };
    }
    default:
      return { result: distinctValues(records, field) };
  }
}

function requireField(op: string, field: string | undefined): string {
  if (typeof field !== 'string' || field === '') {
    throw new QueryArgumentError(`aggregate "${op}" needs "field" (a dot path into the output)`);
  }
  return field;
}

function numbersAt(
  records: readonly IterationRecord[],
  field: string,
): { values: number[]; skipped: number } {
  const values: number[] = [];
  for (const record of records) {
    const value = readField(record, field);
    if (typeof value === 'number' && Number.isFinite(value)) values.push(value);
  }
  return { values, skipped: records.length - values.length };
}

/** The first record holding the smallest (or largest) number or string at `field`. */
function extreme(
  records: readonly IterationRecord[],
  field: string,
  op: 'min' | 'max',
): { value: number | string; record: IterationRecord } | undefined {
  let best: { value: number | string; record: IterationRecord } | undefined;
  for (const record of records) {
    const value = readField(record, field);
    if (typeof value !== 'number' && typeof value !== 'string') continue;
    if (best === undefined) {
      best = { value, record };
      continue;
    }
    if (typeof value !== typeof best.value) {
      throw new QueryArgumentError(
        `aggregate "${op}" on "${field}" found both numbers and strings; add a filter so only one type remains`,
      );
    }
    const order =
      typeof value === 'number'
        ? Math.sign(value - (best.value as number))
        : compareCodePoints(value, best.value as string);
    if ((op === 'min' && order < 0) || (op === 'max' && order > 0)) best = { value, record };
  }
  return best;
}

function distinctValues(records: readonly IterationRecord[], field: string): unknown[] {
  const seen = new Map<string, unknown>();
  for (const record of records) {
    const value = readField(record, field);
    if (value === undefined) continue;
    const key = canonicalJson(value);
    if (!seen.has(key)) seen.set(key, value);
  }
  return [...seen.values()];
}

function groupBy(
  records: readonly IterationRecord[],
  spec: QueryAggregate,
): Record<string, unknown> {
  if (typeof spec.group_by !== 'string' || spec.group_by === '') {
    throw new QueryArgumentError(
      'aggregate "group_by" needs "group_by" (the field to group on, a dot path)',
    );
  }
  const groupOp = spec.group_op ?? 'count';
  if (!(GROUP_OPS as readonly string[]).includes(groupOp)) {
    throw new QueryArgumentError(
      `unknown group_op "${groupOp}"; use one of ${GROUP_OPS.join(', ')}`,
    );
  }
  const field =
    groupOp === 'count' ? '' : requireField(`group_by with group_op ${groupOp}`, spec.field);
  const groups = new Map<string, { key: unknown; records: IterationRecord[] }>();
  for (const record of records) {
    // Records without the grouping field form the group whose key is null.
    const key = readField(record, spec.group_by) ?? null;
    const canonical = canonicalJson(key);
    const group = groups.get(canonical) ?? { key, records: [] };
    group.records.push(record);
    groups.set(canonical, group);
  }
  return {
    groups: [...groups.values()].map((group) => ({
      key: group.key,
      count: group.records.length,
      result: groupResult(group.records, groupOp as GroupOp, field),
    })),
  };
}

function groupResult(records: readonly IterationRecord[], op: GroupOp, field: string): unknown {
  if (op === 'count') return records.length;
  if (op === 'min' || op === 'max') return extreme(records, field, op)?.value ?? null;
  const { values } = numbersAt(records, field);
  const sum = values.reduce((total, value) => total + value, 0);
  if (op === 'sum') return sum;
  return values.length === 0 ? null : sum / values.length;
}
