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

/** What a commander's actors receive besides their own input: the commander's environment. */
export interface EnvironmentInput {
  /** Optional so that a provided actor may ignore it (machine tests script their own). */
  environment?: CommanderEnvironment | null;
}

/** The environment an actor runs with; without one the actor must be provided. */
function environmentOf(input: EnvironmentInput, actor: string): CommanderEnvironment {
  if (input.environment === undefined || input.environment === null) {
    throw new ActorNotProvidedError(actor);
  }
  return input.environment;
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
    modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput & EnvironmentInput>(
      async ({ input, signal }) => environmentOf(input, 'modelTurn').modelTurn(input, signal),
    ),
    executeTool: fromPromise<ToolOutcome, ExecuteToolInput & EnvironmentInput>(
      async ({ input, signal }) => environmentOf(input, 'executeTool').executeTool(input, signal),
    ),
    // No gate means no hold: without an environment every internal call goes through at once.
    toolGate: fromPromise<void, ToolGateInput & EnvironmentInput>(async ({ input, signal }) =>
      input.environment?.toolGate(input, signal),
    ),
    datasetCursor: datasetCursorMachine,
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
