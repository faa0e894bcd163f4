/**
 * The agent machine's input, context, output and environment: what the run gives one agent
 * (its model turns, step gate and tools as a service, its event bus) and what the machine keeps.
 */
import type { Message, ToolCallPart, ToolResultPart, Usage } from '../models/model-types.ts';
import type { ContextPolicy } from '../runtime/context-window.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import type { SkillEntry } from './agent-skills.ts';
import type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
import type { FailureGateInput } from './failure-gate.ts';

/** The default `max_turns` of an agent (runtime.md, "Agent loop"). */
export const DEFAULT_AGENT_MAX_TURNS = 50;

export interface AgentInput {
  /** The conversation so far, ending with the task as a user message. */
  messages: Message[];
  maxTurns?: number;
  /** The skills the agent may load (`load_skill` is answered only when there is one). */
  skills?: readonly SkillEntry[];
  /** Skills loaded by earlier calls of the session (or before a restart), in load order. */
  loadedSkills?: readonly string[];
  /** `pruning` and `compaction` of the agent; none by default. */
  context?: ContextPolicy;
  /** `parallel_tool_calls`: the calls of one reply may run at the same time (default true). */
  parallelToolCalls?: boolean;
  /**
   * What the run gives this agent. The machine's actors read it from their input; without one
   * they fail (`ActorNotProvidedError`) unless provided (`agentMachine.provide`, as tests do).
   */
  environment?: AgentEnvironment;
}

/**
 * The run's side of one agent: the services its named actors call (each under the signal of
 * the actor, aborted when the machine leaves the state that waits for it) and the bus its
 * named actions report on.
 */
export interface AgentEnvironment {
  /** The conversation's id in events: the agent's actor id, or its fork's. */
  conversation: string;
  bus: EventBus;
  /** Sends the next model request of the conversation. */
  modelTurn(input: ModelTurnInput, signal: AbortSignal): Promise<ModelTurnOutput>;
  /** Resolves when the step gate lets `call` run. */
  holdCall(call: ToolCallPart, signal: AbortSignal): Promise<void>;
  /** Runs one call and reports it (`tool.called`, `tool.completed`); tool errors are results. */
  executeTool(input: AgentToolInput, signal: AbortSignal): Promise<ToolOutcome>;
  /** Resolves when the step gate lets the round's failed results go back (`--break error`). */
  holdFailures(input: FailureGateInput, signal: AbortSignal): Promise<void>;
}

/**
 * What an agent's `executeTool` receives: the raw call (the wiring validates it), or the
 * machine's own `answer` to it (skill rules) for the wiring to report as the call's result.
 */
export interface AgentToolInput {
  call: ToolCallPart;
  answer?: ToolOutcome;
  /** The skills loaded now: their tools are callable. */
  loadedSkills: readonly string[];
}

/** What every actor of the machine receives besides its own input. */
export interface EnvironmentInput {
  environment: AgentEnvironment | null;
}

export interface AgentContext {
  messages: Message[];
  turns: number;
  maxTurns: number;
  /** The tool calls of the current reply, in order. */
  calls: ToolCallPart[];
  /** The index in `calls` of the next call to start. */
  next: number;
  /** The calls started and not finished yet. */
  running: RunningCall[];
  /** The results of the reply's calls by call index, filled as they finish. */
  results: (ToolResultPart | undefined)[];
  parallelToolCalls: boolean;
  answer: string | null;
  failure: AgentFailure | null;
  /** The failure is the turn cap (not an actor's error). */
  turnCapReached: boolean;
  skills: readonly SkillEntry[];
  loadedSkills: string[];
  /** The machine's own result for the next call (skill rules), if any. */
  ruling: ToolOutcome | null;
  context: ContextPolicy;
  /** Usage of the last reply (its prompt size decides compaction); null after a cut. */
  lastUsage: Usage | null;
  environment: AgentEnvironment | null;
}

/** A started tool call: its child actor's id and its place in the reply. */
export interface RunningCall {
  id: string;
  index: number;
  call: ToolCallPart;
}

/** Why an agent stopped without an answer: an actor's error, or the turn cap. */
export interface AgentFailure {
  reason: string;
  error?: unknown;
}

/** What a finished agent hands back: its answer, or why it failed, and its conversation. */
export interface AgentResult {
  answer: string | null;
  failure: AgentFailure | null;
  turnCapReached: boolean;
  messages: Message[];
  turns: number;
  /** Every skill loaded so far, in load order (the next call starts with them). */
  loadedSkills: string[];
}

/** The machine's context at its start, from its input. */
export function initialAgentContext(input: AgentInput): AgentContext {
  return {
    messages: [...input.messages],
    turns: 0,
    maxTurns: input.maxTurns ?? DEFAULT_AGENT_MAX_TURNS,
    calls: [],
    next: 0,
    running: [],
    results: [],
    parallelToolCalls: input.parallelToolCalls ?? true,
    answer: null,
    failure: null,
    turnCapReached: false,
    skills: input.skills ?? [],
    loadedSkills: [...(input.loadedSkills ?? [])],
    ruling: null,
    context: input.context ?? {},
    lastUsage: null,
    environment: input.environment ?? null,
  };
}
