/**
 * A commander actor: the commander machine provided with the run's model turns (the task's
 * model, system prompt and tools), the step gate for internal tools, the external tools and
 * the effects as events. `runCommander` runs one to the end and keeps it in the registry.
 */
import { createActor, fromPromise } from 'xstate';
import type {
  CommanderInput,
  CommanderResult,
  ExecuteToolInput,
  ToolGateInput,
} from '../../machines/commander-context.ts';
import { commanderMachine } from '../../machines/commander.machine.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from '../../machines/turn-types.ts';
import type { ReasoningLevel, ResolvedModel } from '../../models/types.ts';
import { abortError } from '../../runtime/abort.ts';
import { commanderTools } from '../../tools/commander/index.ts';
import { commanderEffects, emitMessage } from './commander-effects.ts';
import type { CommanderScope } from './commander-scope.ts';
import { executeCommanderTool } from './external-tools.ts';

/** Everything one commander run needs. */
export interface CommanderLaunch {
  scope: CommanderScope;
  model: ResolvedModel;
  /** Sent only to reasoning-capable models (the caller decides). */
  reasoning?: ReasoningLevel;
  system: string;
  input: CommanderInput;
}

/** The commander machine wired to the run. */
export function commanderLogic(launch: CommanderLaunch) {
  const { scope, model, reasoning, system } = launch;
  const { services } = scope.runtime;
  return commanderMachine.provide({
    actors: {
      modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput>(async ({ input, signal }) => {
        const { response } = await services.runModelTurn({
          actor: scope.actorId,
          task: scope.task,
          model,
          ...(reasoning !== undefined ? { reasoning } : {}),
          system,
          messages: input.messages,
          tools: input.tools ?? commanderTools(launch.input.task),
          signal,
        });
        return response;
      }),
      // Internal tools are gated too, so `--step` holds at every commander tool alike.
      toolGate: fromPromise<void, ToolGateInput>(({ input, signal }) =>
        services.gate.before(
          {
            kind: 'tool',
            actor: scope.actorId,
            tool: input.call.name,
            detail: services.redact(input.call.arguments),
          },
          signal,
        ),
      ),
      executeTool: fromPromise<ToolOutcome, ExecuteToolInput>(({ input, signal }) =>
        executeCommanderTool(scope, input, signal),
      ),
    },
    actions: commanderEffects(services.bus, scope.actorId, scope.task),
  });
}

/**
 * Runs a commander to its final state. Rejects only with an AbortError when `signal` aborts
 * (the actor is stopped, which aborts its model request and tools) or on a machine defect.
 */
export function runCommander(
  launch: CommanderLaunch,
  signal: AbortSignal,
): Promise<CommanderResult> {
  const { scope } = launch;
  for (const message of launch.input.messages)
    emitMessage(scope.runtime.services.bus, scope.actorId, message);
  return new Promise<CommanderResult>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError('the commander was cancelled'));
      return;
    }
    const actor = createActor(commanderLogic(launch), { input: launch.input, id: scope.actorId });
    const onAbort = (): void => {
      subscription.unsubscribe();
      actor.stop();
      reject(abortError('the commander was cancelled'));
    };
    const subscription = actor.subscribe({
      complete: () => {
        signal.removeEventListener('abort', onAbort);
        const output = actor.getSnapshot().output as CommanderResult;
        scope.runtime.commanders.record({
          task: scope.task,
          index: scope.index,
          actorId: scope.actorId,
          model: launch.model,
          ...(launch.reasoning !== undefined ? { reasoning: launch.reasoning } : {}),
          system: launch.system,
          tools: commanderTools(launch.input.task),
          messages: output.messages,
          agents: scope.sessions,
        });
        resolve(output);
      },
      error: (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    });
    signal.addEventListener('abort', onAbort, { once: true });
    actor.start();
  });
}
