/**
 * Runs one commander of a task: from its objective, or — in a resumed run — from where the
 * journal left it (its conversation continued, or its accepted `task_complete` taken as is).
 */
import type { CommanderInput, CommanderResult } from '../../machines/commander-context.ts';
import {
  finishRestoredCommander,
  runCommander,
  type CommanderLaunch,
} from '../commander/commander-actor.ts';
import { userText } from '../commander/conversation-helpers.ts';
import type { CommanderScope } from '../commander/commander-scope.ts';
import type { InvokedBy } from '../run-to-end.ts';
import { continueCommander } from '../resume/continue-commander.ts';
import type { PreparedTask } from './task-preparation.ts';
import { commanderScope } from './task-preparation.ts';

/** How one commander of a task starts. */
export interface TaskCommanderStart {
  /** The parallel item, or null. */
  index: number | null;
  /** The first message when nothing is continued. */
  objective: () => string;
  /** Input besides the task and messages (item index, items, accepted outputs). */
  input?: Partial<CommanderInput>;
  /** Whether a journaled conversation of this commander may be continued. */
  resumable: boolean;
}

/** The launch of a commander of the prepared task in `scope` with `input`. */
export function commanderLaunch(
  prepared: PreparedTask,
  scope: CommanderScope,
  input: CommanderInput,
): CommanderLaunch {
  return {
    scope,
    model: prepared.model,
    ...(prepared.reasoning !== undefined ? { reasoning: prepared.reasoning } : {}),
    system: prepared.system,
    input,
  };
}

/**
 * Runs the commander to its end as a child of `by.parent`; rejects only when cancelled or on a
 * machine defect.
 */
export async function runTaskCommander(
  prepared: PreparedTask,
  start: TaskCommanderStart,
  by: InvokedBy,
): Promise<CommanderResult> {
  const scope = commanderScope(prepared, start.index);
  const continuation = start.resumable ? await continueCommander(scope, by) : undefined;
  const launch: CommanderLaunch = {
    ...commanderLaunch(prepared, scope, {
      ...start.input,
      task: prepared.commanderTask,
      ...(continuation !== undefined
        ? {
            messages: continuation.messages,
            ...continuation.ruleStart,
            resultTools: continuation.resultTools === true,
          }
        : { messages: [userText(start.objective())] }),
    }),
    ...(continuation !== undefined ? { journaled: continuation.journaled } : {}),
  };
  return continuation?.completion !== undefined
    ? finishRestoredCommander(launch, continuation.completion)
    : runCommander(launch, by);
}
