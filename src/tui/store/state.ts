/**
 * The TUI's picture of a run, built only from `MissionEvent`s. What a published snapshot sees
 * never changes: its collections are persistent (a change makes a new version sharing the rest),
 * so React can compare by identity and unchanged entries stay the same objects from one
 * snapshot to the next.
 */
import type {
  BudgetAmounts,
  BudgetScope,
  EventOf,
  MissionEvent,
  SignalKind,
  Subtask,
} from '../../base/events.ts';
import type { GatePoint } from '../../runtime/gate.ts';
import type { AppendList } from './append-list.ts';
import type { ItemVector } from './item-vector.ts';
import { PersistentMap } from './persistent-map.ts';

/** A message of a conversation, as the runtime reports it. */
export type ConversationMessage = EventOf<'message.appended'>['message'];
/** Token usage in the runtime's classes. */
export type TokenUsage = EventOf<'model.response'>['usage'];

/** Where a run, task or actor stands. */
export type ActorStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';

/** What kind of actor a tree node is. */
export type ActorKind = 'run' | 'mission' | 'task' | 'commander' | 'agent' | 'cursor' | 'other';

/** Items of an iterated task: `7/20 ✓6 ✗1`. */
export interface IterationProgress {
  /** Items locked for the task; null until the dataset is locked. */
  total: number | null;
  succeeded: number;
  /** Items that failed with no retries left. */
  failed: number;
  running: number;
}

/** One row of the actor tree. */
export interface ActorNode {
  id: string;
  kind: ActorKind;
  /** Short name shown in the tree (`analyze`, `commander[3]`, `researcher`). */
  label: string;
  parent: string | null;
  status: ActorStatus;
  /** `thinking`, `calling builtins_http_get`, `waiting for researcher`, or empty. */
  activity: string;
  /** Tokens of this actor and everything under it. */
  tokens: number;
  /** Pico-dollars of this actor and everything under it. */
  costPico: bigint;
  /** True when some turn counted here had no known price. */
  unpriced: boolean;
  /** Tasks only, when iterated. */
  iteration: IterationProgress | null;
  /** What the run's signal watch raised on this actor (`signal.raised`, `budget.warning`), in order. */
  signals: readonly ActorSignal[];
}

/** One signal raised on an actor: its kind and what it saw. */
export interface ActorSignal {
  signal: SignalKind | 'budget';
  message: string;
}

/** One tool call of an actor, from `tool.called` to `tool.completed`. */
export interface ToolCallRecord {
  callId: string;
  tool: string;
  arguments: string;
  result: string | null;
  isError: boolean;
  durationMs: number | null;
  /** The seq of its `tool.completed` when the run can be forked there (`sortie fork --at`). */
  forkSeq: number | null;
}

/** Everything the detail pane shows for one actor. */
export interface ActorDetail {
  plan: readonly Subtask[];
  /** The system prompt of the latest request. */
  system: string | null;
  /** The actor's own conversation (`message.appended` with its id). */
  messages: readonly ConversationMessage[];
  /**
   * Beside each message: the seq of the `model.response` an assistant message came from,
   * when the run can be forked there (`sortie fork --at`); null for the others.
   */
  messageSeqs: readonly (number | null)[];
  /** The seq of a reply whose assistant message has not been appended yet. */
  pendingReplySeq: number | null;
  /** The question fork of the conversation (`id#fork`). */
  forkMessages: readonly ConversationMessage[];
  /** Text streamed by the request under way, cleared by its response. */
  streaming: string;
  toolCalls: readonly ToolCallRecord[];
  outputs: readonly unknown[];
  errors: readonly string[];
}

/** Spending of one task, actor or model. */
export interface CostRow {
  key: string;
  requests: number;
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
  /** Some of `reasoning` is sortie's estimate (the provider did not itemise it). */
  reasoningEstimated: boolean;
  costPico: bigint;
  unpriced: boolean;
  /** A local model (priced at $0). */
  local: boolean;
}

/** The cost tables and their totals. */
export interface CostTables {
  byTask: ReadonlyMap<string, CostRow>;
  byActor: ReadonlyMap<string, CostRow>;
  byModel: ReadonlyMap<string, CostRow>;
  total: CostRow;
}

/** One line of the event log. */
export interface EventLine {
  seq: number;
  time: string;
  actor: string;
  type: MissionEvent['type'];
  text: string;
}

/**
 * The event log: an append-only array shared between snapshots; a snapshot sees the first
 * `length` entries only, so appending never changes what an older snapshot shows.
 */
export interface EventLog {
  items: readonly EventLine[];
  length: number;
}

/** One item of an iterated task. */
export interface ItemOutput {
  index: number;
  itemId: string;
  status: 'running' | 'succeeded' | 'failed';
  output: unknown;
  error: string | null;
}

/** What the item table counts for one item beyond its output: attempts, turns, spend, timing. */
export interface ItemStats {
  /** The latest attempt started (1 for an item that never retried; 0 before the first). */
  attempt: number;
  /** Model responses of the item's commander and its agents, every attempt included. */
  turns: number;
  /** Tokens of the item's commander and its agents (what its commander's tree node sums). */
  tokens: number;
  costPico: bigint;
  /** True when some turn counted here had no known price. */
  unpriced: boolean;
  /** ISO time the latest attempt started; null before the first. */
  startedAt: string | null;
  /** Time the item took, once it has finished. */
  durationMs: number | null;
}

/** What a task produced. */
export interface TaskOutput {
  task: string;
  status: ActorStatus;
  output: unknown;
  summary: string | null;
  /** Items of an iterated task, by index (structurally shared between snapshots). */
  items: ItemVector<ItemOutput>;
}

/** The header's facts. */
export interface RunHeader {
  mission: string | null;
  runId: string | null;
  status: ActorStatus;
  /** ISO time of the first event. */
  startedAt: string | null;
  /** ISO time of the latest `run.started` (a resumed run's session). */
  sessionStartedAt: string | null;
  /** Time the run's earlier sessions ran (a resumed run), added to the session's elapsed time. */
  earlierMs: number;
  /** ISO time of the latest event (a replay's clock). */
  lastEventAt: string | null;
  durationMs: number | null;
  tokens: number;
  costPico: bigint;
  unpriced: boolean;
  /** Some gate point is held. */
  paused: boolean;
  taskCount: number;
}

/** A budget at its warning threshold (`budget.warning`) that no raise or breach has settled. */
export type WarnedBudget = { actor: string; scope: BudgetScope; subject: string } & BudgetAmounts;

/** A question to the person (`human.asked`) not answered yet. */
export type OpenQuestion = Omit<EventOf<'human.asked'>, 'seq' | 'time' | 'runId' | 'type'>;

/** The whole snapshot. */
export interface TuiState {
  header: RunHeader;
  actors: ReadonlyMap<string, ActorNode>;
  /** Parent id → child ids in order of appearance; `''` holds the roots. */
  children: ReadonlyMap<string, AppendList<string>>;
  details: ReadonlyMap<string, ActorDetail>;
  costs: CostTables;
  log: EventLog;
  outputs: ReadonlyMap<string, TaskOutput>;
  /** Per iterated task, its items' stats by index (structurally shared between snapshots). */
  itemStats: ReadonlyMap<string, ItemVector<ItemStats>>;
  /** Gate points held now, oldest first. */
  held: readonly GatePoint[];
  /** Questions agents asked the person that wait for an answer, oldest first. */
  questions: readonly OpenQuestion[];
  /** Budgets at their warning threshold that the person may raise, oldest first. */
  warnedBudgets: readonly WarnedBudget[];
  /** Latest mission started, which new tasks are placed under. */
  currentMission: string | null;
  /** A chat run (`sortie chat`): its agent's actor id, the tree's one root. */
  chatAgent: string | null;
}

/** A cost row with nothing spent. */
export function emptyCostRow(key: string): CostRow {
  return {
    key,
    requests: 0,
    input: 0,
    cacheRead: 0,
    cacheWrite: 0,
    output: 0,
    reasoning: 0,
    reasoningEstimated: false,
    costPico: 0n,
    unpriced: false,
    local: false,
  };
}

/** A detail with nothing in it. */
export const EMPTY_DETAIL: ActorDetail = {
  plan: [],
  system: null,
  messages: [],
  messageSeqs: [],
  pendingReplySeq: null,
  forkMessages: [],
  streaming: '',
  toolCalls: [],
  outputs: [],
  errors: [],
};

/** The state before any event. */
export function initialState(): TuiState {
  return {
    header: {
      mission: null,
      runId: null,
      status: 'pending',
      startedAt: null,
      sessionStartedAt: null,
      earlierMs: 0,
      lastEventAt: null,
      durationMs: null,
      tokens: 0,
      costPico: 0n,
      unpriced: false,
      paused: false,
      taskCount: 0,
    },
    actors: PersistentMap.empty(),
    children: PersistentMap.empty(),
    details: PersistentMap.empty(),
    costs: {
      byTask: PersistentMap.empty(),
      byActor: PersistentMap.empty(),
      byModel: PersistentMap.empty(),
      total: emptyCostRow('total'),
    },
    log: { items: [], length: 0 },
    outputs: PersistentMap.empty(),
    itemStats: PersistentMap.empty(),
    held: [],
    questions: [],
    warnedBudgets: [],
    currentMission: null,
    chatAgent: null,
  };
}
