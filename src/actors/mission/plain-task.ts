/** A task without iteration: one commander from objective to `task_complete`. */
import type { AnyActorRef } from 'xstate';
import type { CommanderResult } from '../../machines/commander-context.ts';
import type { TaskOutcome } from '../../machines/task-outcome.ts';
import { failedOutcome } from '../../machines/task-outcome.ts';
import type { PreparedTask } from './task-preparation.ts';
import { objectiveText } from './task-preparation.ts';
import { runTaskCommander } from './task-commander.ts';

/** Why a finished commander did not succeed, or undefined when it did. */
export function commanderError(result: CommanderResult): string | undefined {
  if (result.completion?.outcome === 'succeeded') return undefined;
  if (result.completion?.outcome === 'failed') return result.completion.reason ?? 'the task failed';
  return result.failure?.reason ?? 'the commander stopped';
}

/**
 * Runs the task's commander (a child of `parent`) and records its summary and output in the
 * knowledge store.
 */
export async function runPlainTask(
  prepared: PreparedTask,
  signal: AbortSignal,
  parent: AnyActorRef,
): Promise<TaskOutcome> {
  const result = await runTaskCommander(
    prepared,
    { index: null, objective: () => objectiveText(prepared), resumable: true },
    { signal, parent },
  );
  const error = commanderError(result);
  const completion = result.completion;
  if (error !== undefined || completion === null) {
    return failedOutcome(error ?? 'the commander stopped', { summary: completion?.summary ?? '' });
  }
  const output = result.output?.value;
  prepared.runtime.services.knowledge.recordTask(prepared.config.name, {
    summary: completion.summary,
    output: output ?? null,
  });
  return {
    status: 'succeeded',
    summary: completion.summary,
    ...(output !== undefined ? { output } : {}),
    route: completion.route,
    missionInputs: completion.missionInputs,
  };
}
