import { assign, enqueueActions, type EventObject, type ParameterizedObject } from 'xstate';
import { SortieError } from '../base/errors.ts';
import { perObject } from '../base/per-object.ts';
import type {
  Message,
  StopReason,
  ToolCallPart,
  ToolDefinition,
  ToolResultPart,
  Usage,
} from '../models/model-types.ts';
import type { ParsedArguments } from '../tools/define-tool.ts';
import type { RouteOption, TaskShape } from '../tools/commander/index.ts';
import { commanderTools } from '../tools/commander/index.ts';
import { RESULT_TOOL_DEFINITIONS } from '../tools/results/index.ts';
import type { CursorReply } from './dataset-cursor.machine.ts';
import type { ContextPolicy } from '../runtime/context-window.ts';
import type { Plan } from './plan.ts';
import type { ToolOutcome } from './turn-types.ts';
import type {
  CommanderEffectAction,
  CommanderEnvironment,
  commanderActors,
} from './commander-io.ts';

/** A router's route with, for mission routes, the target mission's input schema. */
export interface CommanderRoute extends RouteOption {
  inputSchema?: Record<string, unknown>;
}

/** The task as its commander sees it. */
export interface CommanderTask extends TaskShape {
  routes?: CommanderRoute[];
}

/**
 * A commander's input: its task, the conversation so far and the rule state it starts from.
 * A fresh commander starts with no plan and no output; a resumed one is handed the plan, lock
 * and output its journal left (the machine does not know which it is).
 */
export interface CommanderInput extends Partial<CommanderRuleStart> {
  task: CommanderTask;
  /** The conversation so far: at least the first user message (the objective). */
  messages: Message[];
  /** Parallel iteration: the index of the item this commander handles. */
  itemIndex?: number;
  /** Sequential iteration: every item of the dataset. */
  items?: readonly unknown[];
  /** Sequential retry: outputs accepted by earlier commanders, kept by item index. */
  acceptedOutputs?: Record<number, unknown>;
  /** Model turns allowed before the commander fails (default 200). */
  maxTurns?: number;
  /** The commander's `pruning` and `compaction`; none by default. */
  context?: ContextPolicy;
  /** Offer the result tools from the first turn (a resumed conversation holds a stored result). */
  resultTools?: boolean;
  /** The run's side of this commander; without it the actors and effects must be provided. */
  environment?: CommanderEnvironment;
}

/** Replies in a row that needed a nudge, or hit the output-token limit. */
export interface ReplyStreaks {
  nudges: number;
  outputLimitHits: number;
}

/** How far a commander may go: model turns, and the size of its conversation. */
export interface CommanderLimits {
  maxTurns: number;
  context: ContextPolicy;
  /**
   * A tool result was stored as a large result (`tool_response.max_tokens`): from then on the
   * result tools are offered too, to page through it. Off until then, so the tool list (and the
   * cached prefix of every request) stays the task's own.
   */
  resultTools: boolean;
}

/** A sequential task's progress through its dataset, as the cursor's replies reported it. */
export interface DatasetProgress {
  /** The item being worked on: handed out last and not yet left behind. */
  current: number | null;
  /** Indexes handed out, in order. */
  handedOut: readonly number[];
  /** The cursor answered `exhausted`. */
  exhausted: boolean;
}

/** The rule state a commander starts from (defaults: no plan, unlocked, no output). */
export interface CommanderRuleStart {
  plan: Plan;
  planLocked: boolean;
  /** The task's accepted output, when one was submitted. */
  output: { value: unknown } | null;
}

/** What `task_complete` recorded. */
export interface CompletionRecord {
  outcome: 'succeeded' | 'failed';
  summary: string;
  reason: string | null;
  /** The chosen route key; null for `none` and when the task has no router. */
  route: string | null;
  missionInputs: Record<string, unknown> | null;
}

/** Why the commander failed (not `task_complete` with `succeed: false`: that is a completion). */
export interface CommanderFailure {
  reason: string;
  /** The error an actor rejected with, for the wiring to classify (budget, provider). */
  error?: unknown;
}

/** A tool call of the current reply waiting for its result, with its arguments parsed. */
export interface QueuedCall {
  call: ToolCallPart;
  /** Null when no tool of that name is offered. */
  parsed: ParsedArguments | null;
}

/** One call of a running external batch. */
export interface BatchEntry {
  call: ToolCallPart;
  args: Record<string, unknown>;
  /** Calls in the same lane run one after another (call_agent: one lane per agent). */
  lane: string;
  actorId: string;
  started: boolean;
  result: ToolResultPart | null;
}

/**
 * Keep it at 19 fields or fewer: xstate's `assign` copies the context with `Object.assign({},
 * …)`, and V8 turns an object built that way with 20 or more properties into a slow dictionary
 * (every assign then costs far more; bench/README.md). The tools are derived from `task` (`toolsOf`).
 */
export interface CommanderContext {
  task: CommanderTask;
  messages: Message[];
  plan: Plan;
  planLocked: boolean;
  /** The accepted output of a non-iterated or parallel-item task. */
  output: { value: unknown } | null;
  /** Accepted outputs of a sequential task by item index. */
  itemOutputs: Record<number, unknown>;
  itemIndex: number | null;
  completion: CompletionRecord | null;
  failure: CommanderFailure | null;
  turns: number;
  limits: CommanderLimits;
  /** The stop reason and usage of the latest model reply; usage is null after a context cut. */
  lastReply: { stopReason: StopReason; usage: Usage | null } | null;
  streaks: ReplyStreaks;
  /** Calls of the current reply not answered yet, in order. */
  queue: QueuedCall[];
  /** Results of the current reply, in call order. */
  results: ToolResultPart[];
  /** Text appended after the results of the current reply (nudge, output-limit note). */
  note: string | null;
  batch: BatchEntry[];
  /** Sequential tasks: the cursor's replies so far (the cursor itself is the child `cursor`). */
  dataset: DatasetProgress | null;
  environment: CommanderEnvironment | null;
}

/** What a finished commander hands to its task. */
export interface CommanderResult {
  completion: CompletionRecord | null;
  failure: CommanderFailure | null;
  output: { value: unknown } | null;
  itemOutputs: Record<number, unknown>;
  plan: Plan;
  messages: Message[];
  turns: number;
}

/** Tools answered by another actor (the wiring), not by the machine's own rules. */
export const EXTERNAL_TOOLS: ReadonlySet<string> = new Set([
  'call_agent',
  'ask_agent',
  'query_task_output',
  'ask_commander',
  'list_commander_questions',
  'get_commander_answer',
  ...RESULT_TOOL_DEFINITIONS.map((tool) => tool.name),
]);

/** A shape's tools followed by the result tools, built once per shape's tool list. */
const withResultTools = perObject(
  (tools: ToolDefinition[]) =>
    Object.freeze([...tools, ...RESULT_TOOL_DEFINITIONS]) as ToolDefinition[],
);

/**
 * The commander's tools: a function of the task's shape (built once per shape), then the
 * result tools once a large result was stored.
 */
export function toolsOf(context: CommanderContext): ToolDefinition[] {
  const tools = commanderTools(context.task);
  return context.limits.resultTools ? withResultTools(tools) : tools;
}

/** The head of the queue; the machine only asks while a call is waiting. */
export function headOf(context: CommanderContext): QueuedCall {
  const head = context.queue[0];
  // A defect, not a model mistake: guards check for an empty queue first.
  if (head === undefined) throw new SortieError('commander: no tool call is waiting');
  return head;
}

/** The head's parsed arguments; only called after the argument guards passed. */
export function headArguments(context: CommanderContext): Record<string, unknown> {
  const parsed = headOf(context).parsed;
  return parsed !== null && parsed.ok ? parsed.args : {};
}

/** The dataset cursor's current item, when the task is sequential and one is being worked on. */
export function currentItem(context: CommanderContext): number | null {
  return context.dataset?.current ?? null;
}

/** The item this commander works on now: the current item, the parallel item, or null. */
export function workingItem(context: CommanderContext): number | null {
  return isSequential(context) ? currentItem(context) : context.itemIndex;
}

/** The task iterates its dataset one item at a time through `dataset_next`. */
export function isSequential(context: CommanderContext): boolean {
  return context.task.iterator === 'sequential';
}

/**
 * The tools the machine's own rules answer: every commander tool that is not external. The
 * `dispatching` state has one transition per name (a test checks it against the tool lists).
 */
export const INTERNAL_TOOL_NAMES = [
  'set_subtasks',
  'get_subtasks',
  'complete_subtask',
  'submit_output',
  'task_complete',
  'dataset_next',
] as const;

/** The name of an internal tool. */
export type InternalToolName = (typeof INTERNAL_TOOL_NAMES)[number];

/** An internal tool call handed to the machine's own rules; arguments stay in the queue. */
export interface InternalToolEvent {
  type: `tool.${InternalToolName}`;
  callId: string;
}

/** A `toolCall` child resolved: xstate's done event, by the child's id. */
export interface ToolCallDone {
  type: `xstate.done.actor.tool:${string}`;
  actorId: string;
  output: ToolOutcome;
}

/** A `toolCall` child rejected (tool infrastructure): xstate's error event, by the child's id. */
export interface ToolCallFailed {
  type: `xstate.error.actor.tool:${string}`;
  actorId: string;
  error: unknown;
}

/** Every event a commander handles: its internal tools, its cursor, its tool calls' results. */
export type CommanderEvent = InternalToolEvent | CursorReply | ToolCallDone | ToolCallFailed;

/** The id of a sequential commander's dataset cursor child. */
export const CURSOR_ID = 'cursor';

/** The default turn cap of a commander (runtime.md, "Commander loop"). */
export const DEFAULT_COMMANDER_MAX_TURNS = 200;

/** Replies without tool calls answered with a nudge before the commander fails. */
export const MAX_NUDGES = 2;

/** Replies in a row cut off by the output-token limit before the commander fails. */
export const MAX_OUTPUT_LIMIT_HITS = 3;

/** The commander's children an action may spawn: its external tool calls. */
type SpawnedToolCall = {
  src: 'toolCall';
  logic: (typeof commanderActors)['toolCall'];
  id: string | undefined;
};

/**
 * An action that updates the context and enqueues effects, typed for the commander without a
 * second setup stage (its effects are named in `CommanderEffectAction`).
 */
export function commanderAction<
  Params extends ParameterizedObject['params'] | undefined = undefined,
>(
  collect: Parameters<
    typeof enqueueActions<
      CommanderContext,
      CommanderEvent,
      Params,
      CommanderEvent,
      SpawnedToolCall,
      CommanderEffectAction,
      never,
      never,
      EventObject
    >
  >[0],
) {
  return enqueueActions<
    CommanderContext,
    CommanderEvent,
    Params,
    CommanderEvent,
    SpawnedToolCall,
    CommanderEffectAction,
    never,
    never,
    EventObject
  >(collect);
}

/** A context update typed for the commander (its events and children), without a setup stage. */
export function commanderAssign<
  Params extends ParameterizedObject['params'] | undefined = undefined,
>(
  assignment: Parameters<
    typeof assign<CommanderContext, CommanderEvent, Params, CommanderEvent, SpawnedToolCall>
  >[0],
) {
  return assign<CommanderContext, CommanderEvent, Params, CommanderEvent, SpawnedToolCall>(
    assignment,
  );
}
