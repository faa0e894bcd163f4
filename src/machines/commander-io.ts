/**
 * The commander's I/O: what the run provides one commander (its environment: model turns, the
 * step gate's holds, external tools, the effects it reports), what each I/O actor receives, and
 * the named actors that reach the environment through their input.
 */
import { fromPromise, type AnyActorRef } from 'xstate';
import type {
  ContextCutParams,
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from './effect-params.ts';
import { ActorNotProvidedError } from './effect-params.ts';
import type { ToolCallPart } from '../models/model-types.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
import type { FailureGateInput } from './failure-gate.ts';

/** The effects a commander reports, as the run records them (events, journal). */
export interface CommanderEffects {
  planUpdated(params: PlanUpdatedParams): void;
  toolCalled(params: ToolCalledParams): void;
  toolCompleted(params: ToolCompletedParams): void;
  outputSubmitted(params: OutputSubmittedParams): void;
  messageAppended(params: MessageAppendedParams): void;
  contextCut(params: ContextCutParams): void;
}

/**
 * What the run provides one commander — model turns, the step gate, external tools and
 * effects — handed in as input, so one machine serves every commander: no `provide` per
 * commander and no lookup of services outside the actor.
 */
export interface CommanderEnvironment {
  modelTurn(input: ModelTurnInput, signal: AbortSignal): Promise<ModelTurnOutput>;
  toolGate(input: ToolGateInput, signal: AbortSignal): Promise<void>;
  /** The step gate's hold before the chosen route takes effect (`--break route`). */
  routeGate(input: RouteGateInput, signal: AbortSignal): Promise<void>;
  /** The step gate's holds before failed results go back to the model (`--break error`). */
  failureGate(input: FailureGateInput, signal: AbortSignal): Promise<void>;
  /** Runs one external call; the actors it starts (agents, forks) are children of `parent`. */
  executeTool(
    input: ExecuteToolInput,
    signal: AbortSignal,
    parent: AnyActorRef,
  ): Promise<ToolOutcome>;
  effects: CommanderEffects;
}

/** What the commander's `executeTool` receives: the call and its validated arguments. */
export interface ExecuteToolInput {
  call: ToolCallPart;
  args: Record<string, unknown>;
}

/** What `toolGate` receives: the internal call about to run. */
export interface ToolGateInput {
  call: ToolCallPart;
}

/** What `routeGate` receives: the route chosen, as `task_complete` recorded it. */
export interface RouteGateInput {
  /** The chosen route key; null for `none`. */
  route: string | null;
}

/** What each I/O actor of the commander receives: the commander's environment and its request. */
export type WithEnvironment<Request> = Request & { environment: CommanderEnvironment | null };

/** The environment an actor runs with; without one the actor must be provided (`.provide`). */
export function environmentOf(environment: CommanderEnvironment | null, actor: string) {
  if (environment === null) throw new ActorNotProvidedError(actor);
  return environment;
}

/** The commander's I/O: one model request, one step-gate hold, one external tool call. */
export const commanderActors = {
  /** Invoked by `awaitingModel`; leaving it aborts the request. */
  modelTurn: fromPromise<ModelTurnOutput, WithEnvironment<ModelTurnInput>>(({ input, signal }) =>
    environmentOf(input.environment, 'modelTurn').modelTurn(input, signal),
  ),
  /** Invoked by `gating`; resolves when the internal call may run. */
  toolGate: fromPromise<void, WithEnvironment<ToolGateInput>>(({ input, signal }) =>
    environmentOf(input.environment, 'toolGate').toolGate(input, signal),
  ),
  /** Spawned by `startBatch`, one per external call (its id names the batch entry). */
  toolCall: fromPromise<ToolOutcome, WithEnvironment<ExecuteToolInput>>(({ input, signal, self }) =>
    environmentOf(input.environment, 'toolCall').executeTool(input, signal, self),
  ),
};

/** The effect actions (what the run records), by the params each takes. */
export type CommanderEffectAction =
  | { type: 'emitPlanUpdated'; params: PlanUpdatedParams }
  | { type: 'emitToolCalled'; params: ToolCalledParams }
  | { type: 'emitToolCompleted'; params: ToolCompletedParams }
  | { type: 'emitOutputSubmitted'; params: OutputSubmittedParams }
  | { type: 'emitMessageAppended'; params: MessageAppendedParams }
  | { type: 'emitContextCut'; params: ContextCutParams };
