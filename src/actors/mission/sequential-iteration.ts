/**
 * Sequential iteration: one commander works through the items with `dataset_next`. When it
 * fails and tries remain, a fresh commander continues from the first item without an accepted
 * output; accepted outputs are kept.
 */
import { reasonOf } from '../../machines/turn-types.ts';
import { isAbortError } from '../../base/abort.ts';
import { actorId } from '../../base/events.ts';
import { itemIdOf } from '../../runtime/knowledge-store.ts';
import { sequentialObjectiveMessage } from '../../runtime/prompts/commander-prompt.ts';
import { firstItemWithoutOutput } from '../../machines/dataset-cursor.machine.ts';
import { commanderError } from './plain-task.ts';
import type { TaskOutcome } from '../../machines/task-outcome.ts';
import { failedOutcome } from '../../machines/task-outcome.ts';
import type { PreparedTask } from './task-preparation.ts';
import { objectiveText } from './task-preparation.ts';
import { runTaskCommander } from './task-commander.ts';

/** Resumed run: the item outputs the task's commander had submitted, by item index. */
function restoredOutputs(prepared: PreparedTask): Record<number, unknown> {
  const outputs = prepared.runtime.restore?.outputs.get(actorId.commander(prepared.config.name));
  const accepted: Record<number, unknown> = {};
  for (const [index, output] of outputs ?? []) if (index !== null) accepted[index] = output;
  return accepted;
}

/** Runs the sequential task's commander, retrying with fresh commanders. */
export async function runSequentialIteration(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  signal: AbortSignal,
): Promise<TaskOutcome> {
  const { bus, knowledge } = prepared.runtime.services;
  const task = prepared.config.name;
  const maxAttempts = 1 + (prepared.config.iterator?.maxRetries ?? 0);
  const objective = sequentialObjectiveMessage(objectiveText(prepared), dataset, items.length);
  // A resumed task starts a fresh commander at the first item without an accepted output.
  let accepted = restoredOutputs(prepared);
  let error = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
    try {
      // Not resumable: a resumed sequential task starts a fresh commander (like a retry).
      const result = await runTaskCommander(
        prepared,
        {
          index: null,
          objective: () => objective,
          input: { items, acceptedOutputs: accepted },
          resumable: false,
        },
        signal,
      );
      accepted = { ...accepted, ...result.itemOutputs };
      const failure = commanderError(result);
      if (failure === undefined && result.completion !== null) {
        const records = items.map((item, index) => {
          const output = accepted[index] ?? null;
          knowledge.recordIteration(task, { index, item, status: 'succeeded', output });
          return { index, itemId: itemIdOf(item, index), status: 'succeeded' as const, output };
        });
        knowledge.setIteratedSummary(task, result.completion.summary);
        return {
          status: 'succeeded',
          summary: result.completion.summary,
          route: result.completion.route,
          missionInputs: result.completion.missionInputs,
          items: records,
        };
      }
      error = failure ?? 'the commander stopped';
    } catch (thrown) {
      if (isAbortError(thrown) || signal.aborted) throw thrown;
      error = reasonOf(thrown);
    }
    if (attempt < maxAttempts) {
      const index = firstItemWithoutOutput(items.length, Object.keys(accepted).map(Number));
      bus.emit({
        type: 'iteration.retrying',
        actor: actorId.commander(task),
        task,
        index,
        itemId: itemIdOf(items[index], index),
        attempt: attempt + 1,
        maxAttempts,
        error,
      });
    }
  }
  return failedOutcome(error);
}
