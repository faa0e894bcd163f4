/** Helpers of the agent machine: its actors' environment and the next call of a reply. */
import type { ToolCallPart } from '../models/model-types.ts';
import { ActorNotProvidedError } from './effect-params.ts';
import type { ToolOutcome } from './turn-types.ts';
import type { AgentContext, AgentEnvironment, EnvironmentInput } from './agent-context.ts';

/** The environment an actor was given; without one the actor must have been provided. */
export function environmentOf(input: EnvironmentInput, actor: string): AgentEnvironment {
  if (input.environment === null) throw new ActorNotProvidedError(actor);
  return input.environment;
}

type Guard = (args: { context: AgentContext }) => boolean;

/** The next call of the reply to start, if any is left. */
export function nextCallOf(context: AgentContext): ToolCallPart | undefined {
  return context.calls[context.next];
}

/** A guard on the next call to start. */
export const onNext =
  (predicate: (context: AgentContext, call: ToolCallPart) => boolean): Guard =>
  ({ context }) => {
    const call = nextCallOf(context);
    return call !== undefined && predicate(context, call);
  };

/** The context update of a ruling on the next call: its result comes from `rule`, not a tool. */
export const ruleOnNext =
  (rule: (context: AgentContext, call: ToolCallPart) => ToolOutcome) =>
  ({ context }: { context: AgentContext }): Partial<AgentContext> => ({
    ruling: rule(context, nextCallOf(context) as ToolCallPart),
  });

/** A finished tool call's child and what it resolved with. */
export interface FinishedCall {
  actorId: string;
  output: ToolOutcome;
}
