/**
 * What finished tasks left behind for their dependents: summary and output of a plain task,
 * one record per item of an iterated task. `query_task_output` reads it.
 */
import { AppendFile, textAt } from '../base/append-file.ts';
import { PositionTable } from '../base/position-table.ts';
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

/**
 * An iterated task's records: where each item's record lies in the store's file, and the
 * records last read back while something still holds them (a WeakRef: a finished item keeps
 * nothing in memory, but a commander querying the same task twice parses the file once).
 */
interface IteratedEntry {
  iterated: true;
  summary: string;
  positions: PositionTable;
  recent: WeakRef<IterationRecord[]> | undefined;
}

type Entry = { iterated: false; summary: string; output: unknown } | IteratedEntry;

/** The start of the name of the run folder's folder of iterated tasks' records. */
export const KNOWLEDGE_PREFIX = 'knowledge-';

/**
 * Per-task results of a run. A plain task's result is kept as data; an iterated task's
 * records (one per item, up to 100,000 and more) are appended as JSON lines to a file of the
 * run folder and read back when asked for: memory holds two numbers per item. The journal
 * stays what a resumed run rebuilds them from, as before.
 */
export class KnowledgeStore {
  private readonly entries = new Map<string, Entry>();
  private readonly file: AppendFile;

  /** `folder` holds the records' file while the mission runs (the run folder). */
  constructor(folder: string) {
    this.file = new AppendFile(folder, KNOWLEDGE_PREFIX, 'iterations.jsonl');
  }

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
  ): void {
    const record: IterationRecord = {
      index: result.index,
      item_id: itemIdOf(result.item, result.index),
      status: result.status,
      output: result.output ?? null,
    };
    if (result.error !== undefined) record.error = result.error;
    this.store(task, record);
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
    // A worker is handed its completed ancestors with every job: the same records again.
    const existing = this.entries.get(task);
    if (
      existing?.iterated === true &&
      existing.summary === knowledge.summary &&
      existing.positions.size === knowledge.records.length
    )
      return;
    this.entries.delete(task);
    this.iteratedEntry(task).summary = knowledge.summary;
    for (const record of knowledge.records) this.store(task, record);
  }

  /** Whether anything is recorded for the task. */
  has(task: string): boolean {
    return this.entries.has(task);
  }

  /** How many items of an iterated task have a record (0 for any other task). */
  recordCount(task: string): number {
    const entry = this.entries.get(task);
    return entry?.iterated === true ? entry.positions.size : 0;
  }

  /** What is kept about a task, records read back and sorted by index. */
  get(task: string): TaskKnowledge | undefined {
    const entry = this.entries.get(task);
    if (entry === undefined || !entry.iterated) return entry;
    return { iterated: true, summary: entry.summary, records: this.records(entry) };
  }

  /** Runs `query_task_output` for a caller; see tools.md. */
  queryTaskOutput(args: QueryTaskOutputArgs, context: QueryContext): ToolResultObject {
    return queryKnowledge(args, context, (task) => this.get(task));
  }

  /** Removes the records' file: the mission is over, no question can come any more. */
  dispose(): void {
    this.file.dispose();
    this.entries.clear();
  }

  private store(task: string, record: IterationRecord): void {
    const entry = this.iteratedEntry(task);
    entry.positions.set(record.index, this.file.append(JSON.stringify(record)));
    entry.recent = undefined;
  }

  private iteratedEntry(task: string): IteratedEntry {
    const existing = this.entries.get(task);
    if (existing?.iterated) return existing;
    const entry: IteratedEntry = {
      iterated: true,
      summary: '',
      positions: new PositionTable(),
      recent: undefined,
    };
    this.entries.set(task, entry);
    return entry;
  }

  private records(entry: IteratedEntry): IterationRecord[] {
    const recent = entry.recent?.deref();
    if (recent !== undefined) return recent;
    const all = this.file.readAll();
    const records: IterationRecord[] = [];
    for (const [, position] of entry.positions.entries()) {
      records.push(JSON.parse(textAt(all, position)) as IterationRecord);
    }
    entry.recent = new WeakRef(records);
    return records;
  }
}
