/**
 * What finished tasks left behind for their dependents: summary and output of a plain task,
 * one record per item of an iterated task. `query_task_output` reads it.
 */
import {
  queryKnowledge,
  type QueryContext,
  type QueryTaskOutputArgs,
} from './query-task-output.ts';

/** One item of an iterated task, as `query_task_output` returns it. */
export interface IterationRecord {
  index: number;
  item_id: string;
  status: 'succeeded' | 'failed';
  output: unknown;
  error?: string;
}

/** Everything kept about one task. */
export type TaskKnowledge =
  | { iterated: false; summary: string; output: unknown }
  | { iterated: true; summary: string; records: readonly IterationRecord[] };

/** A tool result: plain JSON with a `status`. */
export type ToolResultObject = { status: string } & Record<string, unknown>;

/** An item's id: its scalar `id`, `name` or `key` (in that order of preference), else `item_<index>`. */
export function itemIdOf(item: unknown, index: number): string {
  if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
    for (const key of ['id', 'name', 'key']) {
      const value = (item as Record<string, unknown>)[key];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
        return String(value);
      }
    }
  }
  return `item_${index}`;
}

/** The summary a parallel iterated task gets, since no single commander writes one. */
export function iteratedSummary(
  total: number,
  dataset: string,
  succeeded: number,
  failed: number,
): string {
  return `iterated over ${total} items of dataset ${dataset}: ${succeeded} succeeded, ${failed} failed`;
}

interface IteratedEntry {
  iterated: true;
  summary: string;
  records: Map<number, IterationRecord>;
  /** Records by index, rebuilt after a change; queries on 10,000 items should not re-sort. */
  sorted: IterationRecord[] | null;
}

type Entry = { iterated: false; summary: string; output: unknown } | IteratedEntry;

/** Per-task results of a run, kept as plain data. */
export class KnowledgeStore {
  private readonly entries = new Map<string, Entry>();

  /** Records a non-iterated task's result (replacing any earlier one). */
  recordTask(task: string, result: { summary: string; output: unknown }): void {
    this.entries.set(task, {
      iterated: false,
      summary: result.summary,
      output: result.output ?? null,
    });
  }

  /** Records one item's final result; a later record for the same index replaces it. */
  recordIteration(
    task: string,
    result: {
      index: number;
      item: unknown;
      status: 'succeeded' | 'failed';
      output?: unknown;
      error?: string;
    },
  ): IterationRecord {
    const entry = this.iteratedEntry(task);
    const record: IterationRecord = {
      index: result.index,
      item_id: itemIdOf(result.item, result.index),
      status: result.status,
      output: result.output ?? null,
    };
    if (result.error !== undefined) record.error = result.error;
    entry.records.set(result.index, record);
    entry.sorted = null;
    return record;
  }

  /** Sets an iterated task's summary (generated, or the sequential commander's own). */
  setIteratedSummary(task: string, summary: string): void {
    this.iteratedEntry(task).summary = summary;
  }

  /** Sets what another process recorded about a task (a worker of a distributed run). */
  restore(task: string, knowledge: TaskKnowledge): void {
    if (!knowledge.iterated) {
      this.entries.set(task, { ...knowledge });
      return;
    }
    const records = new Map(knowledge.records.map((record) => [record.index, record]));
    this.entries.set(task, { iterated: true, summary: knowledge.summary, records, sorted: null });
  }

  /** Whether anything is recorded for the task. */
  has(task: string): boolean {
    return this.entries.has(task);
  }

  /** What is kept about a task, records sorted by index. */
  get(task: string): TaskKnowledge | undefined {
    const entry = this.entries.get(task);
    if (entry === undefined || !entry.iterated) return entry;
    return { iterated: true, summary: entry.summary, records: this.sortedRecords(entry) };
  }

  /** Runs `query_task_output` for a caller; see tools.md. */
  queryTaskOutput(args: QueryTaskOutputArgs, context: QueryContext): ToolResultObject {
    return queryKnowledge(args, context, (task) => this.get(task));
  }

  private iteratedEntry(task: string): IteratedEntry {
    const existing = this.entries.get(task);
    if (existing?.iterated) return existing;
    const entry: IteratedEntry = { iterated: true, summary: '', records: new Map(), sorted: null };
    this.entries.set(task, entry);
    return entry;
  }

  private sortedRecords(entry: IteratedEntry): IterationRecord[] {
    entry.sorted ??= [...entry.records.values()].sort((left, right) => left.index - right.index);
    return entry.sorted;
  }
}
