/**
 * `MissionEvent`: the one output channel of the runtime. The TUI, the headless printers,
 * the journal and the tests all read these events and nothing else.
 *
 * Money is carried in the models layer's unit, pico-dollars (1e-12 USD, see
 * src/models/cost.ts), written as a decimal string: exact, unbounded and safe in JSON,
 * which has no bigint. Read it back with `BigInt(event.costPico)`.
 */
import type {
  ContextCut,
  Message,
  ProviderName,
  ReasoningLevel,
  StopReason,
  ToolDefinition,
  Usage,
} from './conversation.ts';

/**
 * Where an actor is about to do something: a model request, a tool execution, a router's
 * chosen route taking effect, or a failed tool's error result going back to the model.
 */
export interface GatePoint {
  kind: GatePointKind;
  actor: string;
  /** The model-visible tool name, for tool and error points. */
  tool?: string;
  /**
   * One line for the person: the model key, the tool call's arguments, the route and its
   * condition, or the failed tool's error text (redacted).
   */
  detail: string;
  /** For model points: the system prompt the held request sends (redacted). */
  system?: string;
}

/** What a gate point is before: `route` and `error` points are held only by their breakpoints. */
export type GatePointKind = 'model' | 'tool' | 'route' | 'error';

/** Why a request failed, as a retry notice reports it. */
export type FailureReason =
  | 'status'
  | 'network'
  | 'timeout_first_byte'
  | 'timeout_idle'
  | 'timeout_total'
  | 'truncated_stream'
  | 'other';

/** How a finished run, mission or task ended. */
export type Outcome = 'succeeded' | 'failed' | 'cancelled';

/** A subtask of a commander's plan as `get_subtasks` shows it. */
export interface Subtask {
  index: number;
  title: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** Which model a request went to. */
export interface ModelReference {
  provider: ProviderName;
  /** The model block's label. */
  config: string;
  key: string;
  /** The name sent on the wire. */
  apiName: string;
}

/**
 * What a run's signal watch noticed (`signal.raised`): a commander that keeps turning without
 * completing a subtask, the same tool call again and again, the same task handed to the same
 * agent again. A budget at its warning threshold is the fourth signal, `budget.warning`.
 */
export type SignalKind = 'stall' | 'loop' | 'redelegation';

/** Scope and metric of a budget signal. */
export type BudgetScope = 'mission' | 'task';
export type BudgetMetric = 'tokens' | 'dollars';

/** Spending against a limit: tokens, or pico-dollars as decimal strings. */
export type BudgetAmounts =
  | { metric: 'tokens'; used: number; limit: number }
  | { metric: 'dollars'; used: string; limit: string };

/** How the person chose a budget's new limit: typed it, half as much again, or double. */
export type BudgetRaiseHow = 'typed' | 'half' | 'double';

/** A limit before and after a raise: tokens, or pico-dollars as decimal strings. */
export type BudgetLimitChange =
  { metric: 'tokens'; from: number; to: number } | { metric: 'dollars'; from: string; to: string };

/** One target of a router or `send_to` and whether this call activated it (first one wins). */
export interface RouteActivation {
  kind: 'task' | 'mission';
  name: string;
  activated: boolean;
  /** Why it was not activated. */
  reason?: 'already_activated' | 'already_finished' | 'chaining_disabled';
}

/** Why a task was skipped. */
export type SkipReason =
  /** A router or `send_to` target nobody activated. */
  | 'not_activated'
  /** A `depends_on` task failed or was cancelled. */
  | 'upstream_failed'
  /** A `depends_on` task was skipped. */
  | 'upstream_skipped'
  /** The mission failed or was cancelled before the task could start. */
  | 'mission_stopped';

/** Spending on one model: requests, tokens and pico-dollars (a decimal string). */
export interface ModelTotals {
  model: ModelReference;
  requests: number;
  usage: Usage;
  costPico: string;
  /** Some request had no known price. */
  unpriced: boolean;
}

/** What a run had spent and how long it had run (its sessions' time, not the pauses between). */
export interface RunTotals {
  requests: number;
  usage: Usage;
  /** Pico-dollars, as a decimal string. */
  costPico: string;
  unpriced: boolean;
  durationMs: number;
  /** By model, in order of first use. */
  models: ModelTotals[];
}

/** The events a run can be forked at (`sortie fork --at SEQ`). */
export type ForkPointKind = 'model.response' | 'tool.completed' | 'mission.started';

/** A model reply a fork's actor gets for its next request instead of asking its model. */
export interface PinnedResponse {
  actor: string;
  message: Message;
  usage: Usage;
  stopReason: StopReason;
}

/** A chat run's root as its journal keeps it, so that `resume` and `fork` can go on with it. */
export interface ChatStart {
  /** The agent talked to. */
  agent: string;
  /** `--task`: the one message; the chat ends once the agent has replied to it. */
  task?: string;
}

/** Payload of each event type, keyed by `type`. */
export interface EventPayloads {
  'run.started': {
    mission: string;
    resumed: boolean;
    /** A resumed run: what its earlier sessions spent, as its journal holds it. */
    before?: RunTotals;
    /** `sortie chat`: the run is a conversation with this agent, not the mission's tasks. */
    chat?: ChatStart;
  };
  /**
   * The run is a fork (`sortie fork`): its journal holds another run's events up to `atSeq`
   * (the event at `atSeq` edited when `edited`), and this event, after them, says so. A fork at
   * a model response keeps that reply in `response`: its actor's next request gets it as its
   * answer (not the model's), once.
   */
  'run.forked': {
    parentRunId: string;
    atSeq: number;
    /** The kind of event forked at. */
    at: ForkPointKind;
    edited: boolean;
    response?: PinnedResponse;
  };
  /** The whole run's figures: a resumed run counts its earlier sessions too. */
  'run.finished': {
    outcome: Outcome;
    exitCode: number;
    /** Time the run's sessions ran, all of them. */
    durationMs: number;
    usage: Usage;
    /** Pico-dollars of the whole run, as a decimal string. */
    costPico: string;
  };
  'mission.started': {
    mission: string;
    /** Protected inputs already masked. */
    inputs: Record<string, unknown>;
    /** The mission whose route started this one, for chained missions. */
    chainedFrom: string | null;
  };
  'mission.succeeded': { mission: string; durationMs: number };
  'mission.failed': {
    mission: string;
    error: string;
    failedTask: string | null;
    durationMs: number;
  };
  'mission.cancelled': { mission: string; reason: string; durationMs: number };
  'task.started': {
    task: string;
    activatedBy: string | null;
    iterated: boolean;
    /** A resumed run: the task had succeeded before and is taken from the journal, not re-run. */
    restored?: boolean;
  };
  'task.succeeded': {
    task: string;
    summary: string;
    output: unknown;
    route: string | null;
    durationMs: number;
  };
  'task.failed': { task: string; error: string; durationMs: number };
  'task.cancelled': { task: string; reason: string };
  'task.skipped': { task: string; reason: SkipReason; cause: string | null };
  'iteration.started': { task: string; index: number; itemId: string; attempt: number };
  'iteration.succeeded': {
    task: string;
    index: number;
    itemId: string;
    attempt: number;
    output: unknown;
    durationMs: number;
  };
  'iteration.failed': {
    task: string;
    index: number;
    itemId: string;
    attempt: number;
    error: string;
    /** True when no retries remain for this item. */
    final: boolean;
  };
  'iteration.retrying': {
    task: string;
    index: number;
    itemId: string;
    /** The attempt about to start (2 for the first retry). */
    attempt: number;
    maxAttempts: number;
    error: string;
  };
  'plan.updated': { task: string; index: number | null; subtasks: Subtask[] };
  'model.request': {
    requestId: string;
    model: ModelReference;
    turn: number;
    /**
     * The system prompt, present only when it differs from the same actor's previous
     * `model.request` (always on its first); absent = unchanged. The conversation itself is in
     * `message.appended` events, so the journal grows linearly with the conversation.
     */
    system?: string;
    /** Messages sent with this request (the conversation so far, see `message.appended`). */
    messageCount: number;
    /** The tools offered, present only when they differ from the actor's previous request. */
    tools?: ToolDefinition[];
    reasoning: ReasoningLevel | null;
  };
  'model.response': {
    requestId: string;
    model: ModelReference;
    message: Message;
    usage: Usage;
    /** Pico-dollars of this turn, as a decimal string. */
    costPico: string;
    /** True when no price is known for the model (its cost counts as 0; the TUI says so). */
    unpriced: boolean;
    stopReason: StopReason;
    /** What the provider said about a refused, blocked or filtered reply (see ModelResponse). */
    stopDetail?: string;
    /**
     * A reply to an MCP server's sampling request, outside the actor's conversation: no fork
     * point, since a fork could not replay the server's request it answered.
     */
    sampling?: true;
    durationMs: number;
  };
  'model.retry': {
    requestId: string;
    /** 1 for the first retry. */
    attempt: number;
    waitMs: number;
    reason: FailureReason;
    status: number | null;
    message: string;
  };
  'model.delta': { requestId: string; text: string };
  /**
   * A message appended to a conversation, so the journal (which reads only events) can rebuild
   * every conversation on resume. `conversation` is the actor's id for its own conversation
   * and `actorId.fork(...)` for an `ask_commander` / `ask_agent` fork of it.
   */
  'message.appended': { conversation: string; message: Message };
  /**
   * A conversation was pruned or compacted (`pruning`, `compaction`) before its actor's next
   * request: the cut itself, so the journal rebuilds the conversation on resume by applying it.
   */
  'context.compacted': ContextCut & { conversation: string };
  'tool.called': { callId: string; tool: string; arguments: string };
  'tool.completed': {
    callId: string;
    tool: string;
    result: string;
    isError: boolean;
    durationMs: number;
  };
  'output.submitted': { task: string; index: number | null; output: unknown; replaced: boolean };
  'route.chosen': {
    task: string;
    via: 'router' | 'send_to';
    /** The chosen route key; null for `none` and for `send_to`. */
    route: string | null;
    targets: RouteActivation[];
  };
  'dataset.updated': {
    dataset: string;
    count: number;
    appended: boolean;
    /** The items written (appended ones, or the whole new content), so a resume can rebuild it. */
    items?: unknown[];
  };
  'dataset.locked': { dataset: string; task: string; count: number };
  'question.asked': {
    task: string;
    iteration: number | null;
    questionIndex: number;
    question: string;
    askedBy: string;
  };
  'question.answered': {
    task: string;
    iteration: number | null;
    questionIndex: number;
    answer: string;
  };
  /**
   * An agent asked the person running the mission (`builtins_human_ask`). The actor and the
   * tool call's `callId` name the question until its `human.answered`.
   */
  'human.asked': {
    callId: string;
    question: string;
    /** The choices offered; empty for a free-text answer. */
    choices: string[];
    /** Several choices may be picked (only with choices). */
    multiSelect: boolean;
    shortSummary: string | null;
    /** Markdown the agent added for the person. */
    additionalContext: string | null;
    /** Seconds the question waits before it is answered with a timeout; null waits on. */
    timeoutSeconds: number | null;
    /**
     * The fields of a form an MCP server asks the person to fill (elicitation); the answer is
     * then a JSON object of them. Absent for any other question.
     */
    form?: HumanFormField[];
  };
  /** The end of a `human.asked`: what the agent gets back and where it came from. */
  'human.answered': {
    callId: string;
    /** The tool's result: the text, the choice, or a JSON array of the choices picked. */
    answer: string;
    how: HumanAnswerSource;
    durationMs: number;
  };
  /** An MCP server's progress on a tool call of the actor (`notifications/progress`). */
  'mcp.progressed': {
    server: string;
    callId: string;
    progress: number;
    total: number | null;
    message: string | null;
  };
  /**
   * An MCP server's log message (`notifications/message`), the event of the agent whose call
   * to it was under way (the latest one); `text` is its data, JSON unless a string.
   */
  'mcp.logged': { server: string; level: string; logger: string | null; text: string };
  'budget.warning': { scope: BudgetScope; subject: string } & BudgetAmounts;
  'budget.exceeded': { scope: BudgetScope; subject: string; message: string } & BudgetAmounts;
  /**
   * The person raised a budget's limit for the rest of this run (the TUI's budget prompt); a
   * resumed or forked run keeps the raised limit.
   */
  'budget.raised': { scope: BudgetScope; subject: string; how: BudgetRaiseHow } & BudgetLimitChange;
  /**
   * The actor did something that usually means it is stuck (see `SignalKind`); the run goes on.
   * `count` is what was counted (model turns, identical calls, hand-overs); a repeated call
   * names its tool and arguments.
   */
  'signal.raised': {
    signal: SignalKind;
    count: number;
    message: string;
    tool?: string;
    arguments?: string;
  };
  'gate.paused': { point: GatePoint; reason: GatePauseReason; breakpoint: string | null };
  'gate.resumed': { point: GatePoint; how: GateResumeHow };
  /**
   * A person set (`set`) or removed a breakpoint of the run's gate (the TUI, `sortie attach`,
   * the served run's control route); `breakpoints` is the gate's list afterwards, so every
   * client following the events shows the same list.
   */
  'breakpoints.changed': { breakpoint: string; set: boolean; breakpoints: string[] };
  warning: { code: string; message: string };
}

/** One field of a form a server asks the person to fill (`human.asked`'s `form`). */
export interface HumanFormField {
  name: string;
  /** What the person reads for it: the schema's title, else the name. */
  label: string;
  description: string | null;
  type: 'string' | 'number' | 'integer' | 'boolean';
  /** The values a string field is one of (an enum); empty for a free value. */
  choices: string[];
  default: string | number | boolean | null;
  required: boolean;
}

/**
 * Who answered a person's question: the person, a scripted answer (`--answer`), nobody (no
 * person can be asked: `[no human available]`), the timeout, or the actor was stopped.
 */
export type HumanAnswerSource = 'person' | 'script' | 'unavailable' | 'timeout' | 'cancelled';

/** Why the step gate held a point. */
export type GatePauseReason = 'paused' | 'breakpoint';
/** How a held point was let go. */
export type GateResumeHow = 'step' | 'continue' | 'aborted';

/** Every event type. */
export type MissionEventType = keyof EventPayloads;

/** Fields every event carries. */
export interface EventEnvelope {
  /** Monotonic per run, from 1. */
  seq: number;
  /** ISO-8601. */
  time: string;
  runId: string;
  actor: string;
  /**
   * `--queue`: where a worker's event came from, `ENTRY/N` (the Nth event of that entry of the
   * run's Redis stream). A resumed run reads the stream again from a cursor that may lag its
   * journal, and skips the events up to the last one its journal holds.
   */
  relay?: string;
}

/** The event of one type. */
export type EventOf<T extends MissionEventType> = EventEnvelope & { type: T } & EventPayloads[T];

/** The union of every runtime event. */
export type MissionEvent = { [T in MissionEventType]: EventOf<T> }[MissionEventType];

/** An event before the bus stamps it: no `seq`, `time` or `runId`. */
export type EventInput = {
  [T in MissionEventType]: { type: T; actor: string; relay?: string } & EventPayloads[T];
}[MissionEventType];

/** Deltas are display-only; everything else goes to the journal. */
export function isJournaled(event: MissionEvent): boolean {
  return event.type !== 'model.delta';
}

/** The event types `isJournaled` refuses: a journal's bus listener is not called for them. */
export const UNJOURNALED_TYPES: ReadonlySet<MissionEventType> = new Set(['model.delta']);

/** The ids actors are known by, in events, the TUI and breakpoints. */
export const actorId = {
  run: (): string => 'run',
  mission: (mission: string): string => `mission:${mission}`,
  task: (task: string): string => `task:${task}`,
  commander: (task: string, index?: number): string => `commander:${task}${indexSuffix(index)}`,
  agent: (task: string, agent: string, index?: number): string =>
    `agent:${task}${indexSuffix(index)}/${agent}`,
  cursor: (task: string): string => `cursor:${task}`,
  /** The conversation id of the question fork of an actor's finished conversation. */
  fork: (actor: string): string => `${actor}#fork`,
};

function indexSuffix(index: number | undefined): string {
  return index === undefined ? '' : `[${index}]`;
}

/** An actor id taken apart. */
export interface ParsedActorId {
  kind: 'run' | 'mission' | 'task' | 'commander' | 'agent' | 'cursor';
  /** The mission or task name (empty for `run`). */
  name: string;
  index: number | null;
  agent: string | null;
}

// Names are HCL identifiers: no brackets, slashes, '#', ':' or spaces.
const ACTOR_PATTERN =
  /^(mission|task|commander|agent|cursor):([^[\]/#:\s]+)(?:\[(\d+)\])?(?:\/([^/#:\s]+))?$/;

/** Parses an id made by `actorId`; undefined for anything else. */
export function parseActorId(id: string): ParsedActorId | undefined {
  if (id === 'run') return { kind: 'run', name: '', index: null, agent: null };
  const match = ACTOR_PATTERN.exec(id);
  if (match === null) return undefined;
  const kind = match[1] as ParsedActorId['kind'];
  const index = match[3] === undefined ? null : Number(match[3]);
  const agent = match[4] ?? null;
  // Only agents carry a `/name`, and only commanders and agents carry an index.
  if ((agent !== null) !== (kind === 'agent')) return undefined;
  if (index !== null && kind !== 'commander' && kind !== 'agent') return undefined;
  return { kind, name: match[2] ?? '', index, agent };
}
