/**
 * What the journal of a resumed run says about one task, read once when the task starts and
 * handed to its work as the iteration machines' and commanders' starting input. A fresh run
 * gets the empty resume, so the live code never asks whether it is resumed.
 */
import type {
  MissionJournal,
  SucceededItem,
  SucceededTask,
} from '../../journal/mission-journal.ts';
import { actorId, parseActorId } from '../../base/events.ts';

export interface TaskResume {
  /** The task had succeeded: it is rebuilt from `journal`, not run again. */
  succeeded: { done: SucceededTask; journal: MissionJournal } | null;
  /** Parallel items that had succeeded (not run again). */
  succeededItems: readonly SucceededItem[];
  /** The try each parallel item's commander was on, by item index. */
  attempts: ReadonlyMap<number, number>;
  /** Sequential: the item outputs the task's commander had submitted, by item index. */
  acceptedOutputs: Readonly<Record<number, unknown>>;
}

/** The resume of every task of a fresh run: nothing had happened. */
export const FRESH_TASK: TaskResume = Object.freeze({
  succeeded: null,
  succeededItems: [],
  attempts: new Map<number, number>(),
  acceptedOutputs: Object.freeze({}),
});

/** The resume of `task`, read from the mission's journal (the empty resume without one). */
export function taskResume(journal: MissionJournal | undefined, task: string): TaskResume {
  if (journal === undefined) return FRESH_TASK;
  const done = journal.succeededTasks.get(task);
  return {
    succeeded: done === undefined ? null : { done, journal },
    succeededItems: [...(journal.items.get(task)?.values() ?? [])],
    attempts: itemAttempts(journal, task),
    acceptedOutputs: itemOutputs(journal, task),
  };
}

function itemAttempts(journal: MissionJournal, task: string): Map<number, number> {
  const attempts = new Map<number, number>();
  for (const [actor, attempt] of journal.attempts) {
    const parsed = parseActorId(actor);
    if (parsed?.kind !== 'commander' || parsed.name !== task) continue;
    if (parsed.index !== null) attempts.set(parsed.index, attempt);
  }
  return attempts;
}

function itemOutputs(journal: MissionJournal, task: string): Record<number, unknown> {
  const accepted: Record<number, unknown> = {};
  const outputs = journal.outputs.get(actorId.commander(task));
  for (const [index, output] of outputs ?? []) if (index !== null) accepted[index] = output;
  return accepted;
}
