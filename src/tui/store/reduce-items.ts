/** Iterated tasks: dataset size, item progress, per-item commanders and outputs. */
import type { EventOf, MissionEvent } from '../../base/events.ts';
import { ensureActor, finishSubtree, patchActor } from './actor-tree.ts';
import type { StateDraft } from './draft.ts';
import { addError, commanderId, setItem } from './outputs.ts';
import type { IterationProgress } from './state.ts';

/** Progress before the first item. */
export const NO_PROGRESS: IterationProgress = { total: null, succeeded: 0, failed: 0, running: 0 };

function progressPatch(
  draft: StateDraft,
  task: string,
  change: (progress: IterationProgress) => Partial<IterationProgress>,
): void {
  const progress = ensureActor(draft, `task:${task}`)?.iteration ?? NO_PROGRESS;
  patchActor(draft, `task:${task}`, { iteration: { ...progress, ...change(progress) } });
}

function onSucceeded(draft: StateDraft, event: EventOf<'iteration.succeeded'>): void {
  const { task, index, itemId } = event;
  progressPatch(draft, task, (progress) => ({
    succeeded: progress.succeeded + 1,
    running: Math.max(0, progress.running - 1),
  }));
  finishSubtree(draft, commanderId(task, index), 'succeeded');
  setItem(draft, task, { index, itemId, status: 'succeeded', output: event.output, error: null });
}

function onFailed(draft: StateDraft, event: EventOf<'iteration.failed'>): void {
  const commander = commanderId(event.task, event.index);
  progressPatch(draft, event.task, (progress) => ({
    failed: progress.failed + (event.final ? 1 : 0),
    running: Math.max(0, progress.running - 1),
  }));
  addError(draft, commander, `item ${event.itemId} attempt ${event.attempt}: ${event.error}`);
  // A failure with retries left is one attempt, not the item's outcome.
  if (!event.final) return;
  finishSubtree(draft, commander, 'failed');
  const { index, itemId } = event;
  setItem(draft, event.task, { index, itemId, status: 'failed', output: null, error: event.error });
}

/** Applies an iteration event; returns false when the event is not one. */
export function reduceItems(draft: StateDraft, event: MissionEvent): boolean {
  switch (event.type) {
    case 'dataset.locked':
      progressPatch(draft, event.task, () => ({ total: event.count }));
      return true;
    case 'iteration.started': {
      const { task, index, itemId } = event;
      progressPatch(draft, task, (progress) => ({ running: progress.running + 1 }));
      patchActor(draft, commanderId(task, index), {
        status: 'running',
        activity: event.attempt > 1 ? `attempt ${event.attempt}` : '',
      });
      setItem(draft, task, { index, itemId, status: 'running', output: null, error: null });
      return true;
    }
    case 'iteration.succeeded':
      onSucceeded(draft, event);
      return true;
    case 'iteration.failed':
      onFailed(draft, event);
      return true;
    case 'iteration.retrying':
      patchActor(draft, commanderId(event.task, event.index), {
        activity: `retrying (attempt ${event.attempt}/${event.maxAttempts})`,
      });
      return true;
    default:
      return false;
  }
}
