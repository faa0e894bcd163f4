/** Outputs per task and per item, shared by the task and iteration reducers. */
import type { StateDraft } from './draft.ts';
import { ItemVector } from './item-vector.ts';
import type { ItemOutput, ItemStats, TaskOutput, TokenUsage } from './state.ts';

/** Tokens of a usage (reasoning is already part of output). */
export function usageTokens(usage: TokenUsage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** Appends an error line to an actor's detail. */
export function addError(draft: StateDraft, actor: string, text: string): void {
  draft.patchDetail(actor, { errors: [...draft.detail(actor).errors, text] });
}

/** The commander of a task, or of one item of it. */
export function commanderId(task: string, index: number | null): string {
  return index === null ? `commander:${task}` : `commander:${task}[${index}]`;
}

/** A task's outputs so far (an empty running record before any). */
export function taskOutput(draft: StateDraft, task: string): TaskOutput {
  return (
    draft.output(task) ?? {
      task,
      status: 'running',
      output: null,
      summary: null,
      items: ItemVector.empty(),
    }
  );
}

/** Replaces one item's record; the other items stay shared with the snapshot before. */
export function setItem(draft: StateDraft, task: string, item: ItemOutput): void {
  const output = taskOutput(draft, task);
  draft.setOutput({ ...output, items: output.items.set(item.index, item) });
}

/** Stats of an item no event has counted yet. */
export const NO_ITEM_STATS: ItemStats = {
  attempt: 0,
  turns: 0,
  tokens: 0,
  costPico: 0n,
  unpriced: false,
  startedAt: null,
  durationMs: null,
};

/** Changes one item's stats; the other items' stay shared with the snapshot before. */
export function patchItemStats(
  draft: StateDraft,
  task: string,
  index: number,
  change: (stats: ItemStats) => Partial<ItemStats>,
): void {
  const vector = draft.itemStats(task);
  const stats = vector.get(index) ?? NO_ITEM_STATS;
  draft.setItemStats(task, vector.set(index, { ...stats, ...change(stats) }));
}
