import { setup } from 'xstate';
import type {
  CommanderContext,
  CommanderEnvironment,
  CommanderEvent,
  CommanderInput,
  CommanderResult,
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

/** The environment a job runs with; without one the commander has no I/O and fails. */
export function environmentOf(context: CommanderContext, actor: string): CommanderEnvironment {
  if (context.environment === null) throw new ActorNotProvidedError(actor);
  return context.environment;
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
