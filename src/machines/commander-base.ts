import { fromPromise, setup } from 'xstate';
import type {
  CommanderContext,
  CommanderEvent,
  CommanderInput,
  CommanderResult,
  ExecuteToolInput,
  ToolGateInput,
} from './commander-context.ts';
import type {
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { ActorNotProvidedError, noEffect } from './effect-params.ts';
import { commanderGuards } from './commander-guards.ts';
import { datasetCursorMachine } from './dataset-cursor.machine.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';

const notProvided = (actor: string) => async (): Promise<never> => {
  throw new ActorNotProvidedError(actor);
};

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
    modelTurn: fromPromise<ModelTurnOutput, ModelTurnInput>(notProvided('modelTurn')),
    executeTool: fromPromise<ToolOutcome, ExecuteToolInput>(notProvided('executeTool')),
    // No gate means no hold: the default lets every internal call through at once.
    toolGate: fromPromise<void, ToolGateInput>(async () => undefined),
    datasetCursor: datasetCursorMachine,
  },
  guards: commanderGuards,
  actions: {
    emitPlanUpdated: (_, _params: PlanUpdatedParams) => noEffect(),
    emitToolCalled: (_, _params: ToolCalledParams) => noEffect(),
    emitToolCompleted: (_, _params: ToolCompletedParams) => noEffect(),
    emitOutputSubmitted: (_, _params: OutputSubmittedParams) => noEffect(),
    emitMessageAppended: (_, _params: MessageAppendedParams) => noEffect(),
  },
});
