import { fromPromise, setup } from 'xstate';
import type {
  CommanderContext,
  CommanderEnvironment,
  CommanderEvent,
  CommanderInput,
  CommanderResult,
  ExecuteToolInput,
  ToolGateInput,
} from './commander-context.ts';
import type {
  ContextCutParams,
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { ActorNotProvidedError } from './effect-params.ts';
import { commanderGuards } from './commander-guards.ts';
import { datasetCursorMachine } from './dataset-cursor.machine.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';

/** What each I/O actor of the commander receives: the commander's environment and its request. */
export type WithEnvironment<Request> = Request & { environment: CommanderEnvironment | null };

/** The environment an actor runs with; without one the actor must be provided (`.provide`). */
function environmentOf(environment: CommanderEnvironment | null, actor: string) {
  if (environment === null) throw new ActorNotProvidedError(actor);
  return environment;
}

/**
 * The commander's types, actors, guards and effects. Actions that enqueue the effects are
 * built on top of it (`createAction`, `extend`) so their references to effects are typed.
 */
export const commanderBase = setup({
  types: {
    input: {} as CommanderInput,
    context: {} as CommanderContext,
    events: {} as CommanderEvent,
    output: {} as CommanderResult,
  },
  actors: {
    datasetCursor: datasetCursorMachine,
    /** One model request; leaving `awaitingModel` aborts it. */
    modelTurn: fromPromise<ModelTurnOutput, WithEnvironment<ModelTurnInput>>(({ input, signal }) =>
      environmentOf(input.environment, 'modelTurn').modelTurn(input, signal),
    ),
    /** The step gate's hold of an internal call; resolves when the call may run. */
    toolGate: fromPromise<void, WithEnvironment<ToolGateInput>>(({ input, signal }) =>
      environmentOf(input.environment, 'toolGate').toolGate(input, signal),
    ),
    /** One external call of a batch, spawned by `startBatch` (its id names the batch entry). */
    toolCall: fromPromise<ToolOutcome, WithEnvironment<ExecuteToolInput>>(({ input, signal }) =>
      environmentOf(input.environment, 'toolCall').executeTool(input, signal),
    ),
  },
  guards: commanderGuards,
  actions: {
    // The environment records effects; without one (a machine test) they do nothing.
    emitPlanUpdated: ({ context }, params: PlanUpdatedParams) =>
      context.environment?.effects.planUpdated(params),
    emitToolCalled: ({ context }, params: ToolCalledParams) =>
      context.environment?.effects.toolCalled(params),
    emitToolCompleted: ({ context }, params: ToolCompletedParams) =>
      context.environment?.effects.toolCompleted(params),
    emitOutputSubmitted: ({ context }, params: OutputSubmittedParams) =>
      context.environment?.effects.outputSubmitted(params),
    emitMessageAppended: ({ context }, params: MessageAppendedParams) =>
      context.environment?.effects.messageAppended(params),
    emitContextCut: ({ context }, params: ContextCutParams) =>
      context.environment?.effects.contextCut(params),
  },
});
