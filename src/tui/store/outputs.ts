/** Outputs per task and per item, shared by the task and iteration reducers. */
import type { StateDraft } from './draft.ts';
import type { ItemOutput, TaskOutput, TokenUsage } from './state.ts';

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
    draft.output(task) ?? { task, status: 'running', output: null, summary: null, items: new Map() }
  );
}

/** Replaces one item's record. */
export function setItem(draft: StateDraft, task: string, item: ItemOutput): void {
  const output = taskOutput(draft, task);
  const items = new Map(output.items);
  items.set(item.index, item);
  draft.setOutput({ ...output, items });
}
