/**
 * A sequential iterated task: the sequential iteration machine provided with its commander (a
 * fresh one per try, continuing from the first item without an accepted output) and the
 * `iteration.retrying` event; on success every item is recorded with its output.
 */
import { fromPromise } from 'xstate';
import type {
  SequentialAttemptInput,
  SequentialAttemptOutput,
} from '../../machines/sequential-iteration.machine.ts';
import { sequentialIterationMachine } from '../../machines/sequential-iteration.machine.ts';
import type { ItemRetryingParams } from '../../machines/iteration-context.ts';
import type { TaskOutcome } from '../../machines/task-outcome.ts';
import { failedOutcome } from '../../machines/task-outcome.ts';
import { actorId } from '../../base/events.ts';
import { itemIdOf } from '../../runtime/knowledge-store.ts';
import { sequentialObjectiveMessage } from '../../runtime/prompts/commander-prompt.ts';
import { runToEnd, type InvokedBy } from '../run-to-end.ts';
import { commanderError } from './plain-task.ts';
import type { PreparedTask } from './task-preparation.ts';
import { objectiveText } from './task-preparation.ts';
import { runTaskCommander } from './task-commander.ts';

/** One try: a fresh commander over every item, given the outputs accepted so far. */
function commanderActor(prepared: PreparedTask, dataset: string, items: readonly unknown[]) {
  const objective = sequentialObjectiveMessage(objectiveText(prepared), dataset, items.length);
  return fromPromise<SequentialAttemptOutput, SequentialAttemptInput>(
    async ({ input, signal, self }) => {
      // Never continued: a resumed sequential task starts a fresh commander (like a retry).
      const result = await runTaskCommander(
        prepared,
        {
          index: null,
          objective: () => objective,
          input: { items, acceptedOutputs: input.acceptedOutputs },
          resumable: false,
        },
        { signal, parent: self },
      );
      const failure = commanderError(result);
      const { completion, itemOutputs } = result;
      if (failure === undefined && completion !== null) {
        const { summary, route, missionInputs } = completion;
        return { status: 'succeeded', itemOutputs, summary, route, missionInputs };
      }
      return { status: 'failed', itemOutputs, error: failure ?? 'the commander stopped' };
    },
  );
}

/** Runs the sequential task's commander under `by.parent`, retrying with fresh commanders. */
export async function runSequentialTask(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  by: InvokedBy,
): Promise<TaskOutcome> {
  const { bus, knowledge } = prepared.runtime.services;
  const task = prepared.config.name;
  const machine = sequentialIterationMachine.provide({
    actors: { commander: commanderActor(prepared, dataset, items) },
    actions: {
      itemRetrying: (_, params: ItemRetryingParams) => {
        bus.emit({
          type: 'iteration.retrying',
          actor: actorId.commander(task),
          task,
          itemId: itemIdOf(items[params.index], params.index),
          ...params,
        });
      },
    },
  });
  const output = await runToEnd(
    machine,
    {
      total: items.length,
      maxAttempts: 1 + (prepared.config.iterator?.maxRetries ?? 0),
      acceptedOutputs: prepared.resume.acceptedOutputs,
    },
    by.signal,
    'the task was cancelled',
    by.parent === undefined ? {} : { parent: by.parent },
  );
  const completion = output.completion;
  if (completion === null) return failedOutcome(output.error ?? 'the commander stopped');
  const records = items.map((item, index) => {
    const itemOutput = output.acceptedOutputs[index] ?? null;
    knowledge.recordIteration(task, { index, item, status: 'succeeded', output: itemOutput });
    return {
      index,
      itemId: itemIdOf(item, index),
      status: 'succeeded' as const,
      output: itemOutput,
    };
  });
  knowledge.setIteratedSummary(task, completion.summary);
  return {
    status: 'succeeded',
    summary: completion.summary,
    route: completion.route,
    missionInputs: completion.missionInputs,
    items: records,
  };
}
