/**
 * What the commander and agent machines tell the outside world. The machines name these as
 * actions that do nothing by default; the wiring provides them (events, journal).
 */
import type { Message, ToolCallPart, ToolResultPart } from '../models/model-types.ts';
import { SortieError } from '../base/errors.ts';
import type { ContextCut } from '../runtime/context-window.ts';
import type { Plan } from './plan.ts';

export interface PlanUpdatedParams {
  plan: Plan;
  /** The item the plan is for on iterated tasks, else null. */
  index: number | null;
}

export interface ToolCalledParams {
  call: ToolCallPart;
}

export interface ToolCompletedParams {
  call: ToolCallPart;
  result: ToolResultPart;
}

export interface OutputSubmittedParams {
  output: unknown;
  /** The item index on iterated tasks, else null. */
  index: number | null;
  replaced: boolean;
}

export interface MessageAppendedParams {
  message: Message;
}

export interface ContextCutParams {
  cut: ContextCut;
}

/** The default of every effect: the machine works alone, the wiring decides what to record. */
export function noEffect(): void {}

/** Thrown by the default I/O actors: the wiring must provide `modelTurn` and `executeTool`. */
export class ActorNotProvidedError extends SortieError {
  constructor(readonly actor: string) {
    super(`the ${actor} actor was not provided`);
  }
}
