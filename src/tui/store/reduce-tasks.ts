/** Task events: statuses, plans, submitted outputs. */
import type { EventOf, MissionEvent } from '../../base/events.ts';
import { ensureActor, finishActor, finishSubtree, patchActor } from './actor-tree.ts';
import type { StateDraft } from './draft.ts';
import { addError, commanderId, setItem, taskOutput } from './outputs.ts';
import { NO_PROGRESS } from './reduce-items.ts';

function onOutput(draft: StateDraft, event: EventOf<'output.submitted'>): void {
  ensureActor(draft, event.actor);
  draft.patchDetail(event.actor, { outputs: [...draft.detail(event.actor).outputs, event.output] });
  if (event.index === null) {
    draft.setOutput({ ...taskOutput(draft, event.task), output: event.output });
    return;
  }
  const item = taskOutput(draft, event.task).items.get(event.index);
  setItem(draft, event.task, {
    index: event.index,
    itemId: item?.itemId ?? String(event.index),
    status: item?.status ?? 'running',
    output: event.output,
    error: item?.error ?? null,
  });
}

/**
 * The node a task's start and end mark: the task, or a chat's agent, which stands for the
 * chat's one task (the tree shows no task above it), so a failed chat shows as a failed task.
 */
function taskNode(draft: StateDraft, task: string): string {
  return draft.state.chatAgent ?? `task:${task}`;
}

/** Applies a task event; returns false when the event is not one. */
export function reduceTasks(draft: StateDraft, event: MissionEvent): boolean {
  switch (event.type) {
    case 'task.started': {
      const existing = draft.actor(`task:${event.task}`)?.iteration ?? null;
      draft.patchHeader({ taskCount: draft.header.taskCount + 1 });
      patchActor(draft, `task:${event.task}`, {
        status: 'running',
        iteration: event.iterated ? (existing ?? NO_PROGRESS) : null,
      });
      draft.setOutput({ ...taskOutput(draft, event.task), status: 'running' });
      return true;
    }
    case 'task.succeeded':
      finishSubtree(draft, taskNode(draft, event.task), 'succeeded');
      draft.setOutput({
        ...taskOutput(draft, event.task),
        status: 'succeeded',
        output: event.output,
        summary: event.summary,
      });
      return true;
    case 'task.failed':
      finishSubtree(draft, taskNode(draft, event.task), 'failed');
      addError(draft, taskNode(draft, event.task), event.error);
      draft.setOutput({ ...taskOutput(draft, event.task), status: 'failed' });
      return true;
    case 'task.cancelled':
      finishSubtree(draft, taskNode(draft, event.task), 'cancelled');
      draft.setOutput({ ...taskOutput(draft, event.task), status: 'cancelled' });
      return true;
    case 'task.skipped':
      // Counted like the line log's summary: every task that reached an end, skipped included.
      draft.patchHeader({ taskCount: draft.header.taskCount + 1 });
      finishActor(draft, `task:${event.task}`, 'skipped');
      return true;
    case 'plan.updated':
      draft.patchDetail(commanderId(event.task, event.index), { plan: event.subtasks });
      return true;
    case 'output.submitted':
      onOutput(draft, event);
      return true;
    default:
      return false;
  }
}
