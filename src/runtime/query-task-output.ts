/**
 * `query_task_output` (tools.md): access checks, then for iterated tasks filters, item ids,
 * ordering, paging or an aggregate. Every outcome is a plain JSON result object.
 */
import type { IterationRecord, TaskKnowledge, ToolResultObject } from './knowledge-store.ts';
import { runAggregate, type QueryAggregate } from './query-aggregate.ts';
import { checkFilters, matchesAll, QueryArgumentError, type QueryFilter } from './query-filters.ts';
import { compareForOrder, isAbsent, readField } from './query-values.ts';

export const DEFAULT_QUERY_LIMIT = 20;
export const MAX_QUERY_LIMIT = 200;

/** The tool's arguments (already schema-checked by the tool layer; checked again here). */
export interface QueryTaskOutputArgs {
  task: string;
  filters?: QueryFilter[];
  item_ids?: Array<string | number>;
  limit?: number;
  offset?: number;
  order_by?: string;
  desc?: boolean;
  aggregate?: QueryAggregate;
}

/** Who asks, and what the caller's task may see. */
export interface QueryContext {
  /** The calling task's name, as error messages show it. */
  caller: string;
  isAncestor(task: string): boolean;
  isCompleted(task: string): boolean;
}

const OPTIONAL_ARGUMENTS = [
  'filters',
  'item_ids',
  'limit',
  'offset',
  'order_by',
  'desc',
  'aggregate',
] as const;

/** Answers one `query_task_output` call from recorded knowledge. */
export function queryKnowledge(
  args: QueryTaskOutputArgs,
  context: QueryContext,
  lookup: (task: string) => TaskKnowledge | undefined,
): ToolResultObject {
  const task = args.task;
  if (!context.isAncestor(task)) {
    return errorResult(`task "${task}" is not a dependency of "${context.caller}"`);
  }
  const knowledge = context.isCompleted(task) ? lookup(task) : undefined;
  if (knowledge === undefined) return errorResult(`task "${task}" has not completed`);
  if (!knowledge.iterated) {
    const result: ToolResultObject = {
      status: 'ok',
      task,
      iterated: false,
      output: knowledge.output,
      summary: knowledge.summary,
    };
    const ignored = OPTIONAL_ARGUMENTS.filter((name) => args[name] !== undefined);
    if (ignored.length > 0) {
      result.note = `task "${task}" is not iterated, so ${ignored.join(', ')} ${ignored.length === 1 ? 'was' : 'were'} ignored`;
    }
    return result;
  }
  try {
    return { status: 'ok', task, ...queryRecords(knowledge.records, args) };
  } catch (error) {
    if (error instanceof QueryArgumentError) return errorResult(error.message);
    throw error;
  }
}

/** Filters, orders and pages (or aggregates) an iterated task's records. */
export function queryRecords(
  records: readonly IterationRecord[],
  args: Omit<QueryTaskOutputArgs, 'task'>,
): Record<string, unknown> {
  const filters = args.filters ?? [];
  checkFilters(filters);
  const wanted = args.item_ids === undefined ? undefined : new Set(args.item_ids.map(String));
  const selected = records.filter(
    (record) => (wanted === undefined || wanted.has(record.item_id)) && matchesAll(record, filters),
  );
  // Aggregates ignore paging, so paging arguments are not checked for them.
  if (args.aggregate !== undefined) return runAggregate(selected, args.aggregate);
  const limit = args.limit ?? DEFAULT_QUERY_LIMIT;
  const offset = args.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) {
    throw new QueryArgumentError(
      `limit must be a whole number from 1 to ${MAX_QUERY_LIMIT}; page with offset for more`,
    );
  }
  if (!Number.isInteger(offset) || offset < 0) {
    throw new QueryArgumentError('offset must be a whole number of 0 or more');
  }
  const ordered =
    args.order_by === undefined
      ? selected
      : orderRecords(selected, args.order_by, args.desc === true);
  return {
    total: selected.length,
    offset,
    limit,
    items: ordered.slice(offset, offset + limit),
  };
}

/** A stable sort on a field; records without a value (missing or null) go last either way. */
function orderRecords(
  records: readonly IterationRecord[],
  field: string,
  descending: boolean,
): IterationRecord[] {
  if (field === '') throw new QueryArgumentError('order_by must be a non-empty dot path');
  const keyed = records.map((record) => ({ record, value: readField(record, field) }));
  keyed.sort((left, right) => {
    const leftAbsent = isAbsent(left.value);
    const rightAbsent = isAbsent(right.value);
    if (leftAbsent || rightAbsent) return Number(leftAbsent) - Number(rightAbsent);
    const order = compareForOrder(left.value, right.value);
    return descending ? -order : order;
  });
  return keyed.map((entry) => entry.record);
}

function errorResult(error: string): ToolResultObject {
  return { status: 'error', error };
}
