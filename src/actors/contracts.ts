/**
 * The seams between the parts that together run a mission: the CLI (and programmatic users)
 * call `startRun`; the mission engine drives tasks and commanders; agent sessions run agents;
 * every model request of every actor goes through one `RunModelTurn`. Types only.
 */
import type { AgentConfig, Config, MissionConfig } from '../config/config-types.ts';
import type { CostLedger } from '../models/cost-ledger.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type {
  Message,
  ModelResponse,
  ReasoningLevel,
  ResolvedModel,
  ToolDefinition,
} from '../models/model-types.ts';
import type { BudgetTracker } from '../runtime/budget.ts';
import type { BudgetRaising } from '../runtime/budget-raises.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import type { ChatStart, MissionEvent } from '../base/events.ts';
import type { RunJournalState } from '../journal/restore.ts';
import type { StepGate } from '../runtime/gate.ts';
import type { KnowledgeStore } from '../runtime/knowledge-store.ts';
import type { QuestionStore } from '../runtime/question-store.ts';
import type { AgentTool, ToolOutcome } from '../tools/builtins/agent-tool.ts';
import type { CommanderTask } from '../machines/commander-context.ts';
import type { ItemAttemptOutput } from '../machines/iteration-context.ts';
import type { TaskKnowledge } from '../runtime/knowledge-store.ts';
import type { HumanAskers, HumanDesk, HumanDeskOptions } from '../runtime/human-desk.ts';
import type { DatasetStore } from '../tools/datasets/index.ts';
import type { SlotSet } from '../tools/files/index.ts';
import type { McpPool } from '../tools/mcp/index.ts';
import type { ResultStore } from '../tools/results/index.ts';
import type { InvokedBy } from './run-to-end.ts';

/** Everything needed to run a mission (and the missions it chains to). */
export interface RunOptions {
  config: Config;
  /** The mission to run first. */
  mission: string;
  /** Mission inputs already converted to their types (CLI strings converted by the caller). */
  inputs: Record<string, unknown>;
  /** Absolute state directory (`.sortie/` of the project unless moved). */
  stateDir: string;
  /** Defaults to a new sortable id. */
  runId?: string;
  /** Defaults to the open gate (never holds). */
  gate?: StepGate;
  keepGoing?: boolean;
  /** Follow cross-mission routes in the same run (default true; `--no-chain` sets false). */
  chain?: boolean;
  /**
   * Defaults to the real providers (`createModelClient`); cassettes replace it. When given,
   * API-key variables are not required (a replayed run needs no key).
   */
  clients?: ModelClientFactory;
  /** Attached before the first event is emitted (printers, TUI store, tests). */
  subscribers?: Array<(event: MissionEvent) => void>;
  /** Aborting it cancels the run (like Ctrl-C). */
  signal?: AbortSignal;
  /** Tools registered as TypeScript functions, by the name `tools.NAME` gives them. */
  functionTools?: ReadonlyMap<string, AgentTool>;
  /**
   * Continue a run from its journal (`sortie resume`): the run keeps its id and numbering, and
   * `mission` (with `inputs`) continues from what the journal holds for it.
   */
  resume?: RunJournalState;
  /**
   * Questions agents ask the person (`builtins_human_ask`): whether a person can answer, the
   * run's timeout, scripted answers. Default: nobody can (`[no human available]`).
   */
  human?: Omit<HumanDeskOptions, 'bus'>;
  /**
   * `--queue`: the items of parallel tasks run as jobs on workers (docs/distributed.md); the
   * run keeps everything else. Default: every item runs in this process.
   */
  itemQueue?: ItemQueue;
  /** `sortie chat`: the run's root is one agent session fed by the person, not the mission's tasks. */
  chat?: ChatRoot;
}

/** A chat run's root: the agent talked to, and where the person's messages come from. */
export interface ChatRoot extends ChatStart {
  /** Told each reply (or why the turn failed) once the agent has given it. */
  replied?: (reply: AgentCallResult) => void;
}

/** What a worker needs to run one try of one parallel item as the run process would. */
export interface QueuedItem {
  mission: string;
  task: string;
  dataset: string;
  index: number;
  attempt: number;
  /** The item's value from the locked dataset. */
  item: unknown;
  /** The task as its commanders see it, computed once by the run process. */
  prepared: { ancestors: readonly string[]; system: string; commanderTask: CommanderTask };
  /** What the ancestors left for `query_task_output`. */
  knowledge: Record<string, TaskKnowledge>;
}

/** The commander question tools, which read the mission's commanders and question store. */
export type QuestionToolName =
  'ask_commander' | 'list_commander_questions' | 'get_commander_answer';

/**
 * Answers the question tools of the item `index` of a task's commander where the commanders
 * asked live: a distributed run's process answers them for its workers' items.
 */
export type QuestionTools = (
  call: { index: number; tool: QuestionToolName; args: Record<string, unknown> },
  signal: AbortSignal,
) => Promise<ToolOutcome>;

/** Runs parallel items elsewhere (`--queue`): one try of one item, settled with its outcome. */
export interface ItemQueue {
  /**
   * `services`: the run's, into which the worker's events and costs go; `questions`: how the
   * run answers the item's question tools.
   */
  run(
    item: QueuedItem,
    services: RunServices,
    signal: AbortSignal,
    questions: QuestionTools,
  ): Promise<ItemAttemptOutput>;
}

export type FinalStatus = 'succeeded' | 'failed' | 'cancelled';

/** Why a run was cancelled when nobody said otherwise (Ctrl-C, the TUI, an aborted signal). */
export const CANCELLED_BY_USER = 'cancelled by the user';

/** The cancellation reason an aborted run signal carries: its text, or the user's Ctrl-C. */
export function cancelReasonOf(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : CANCELLED_BY_USER;
}

export interface TaskResult {
  mission: string;
  name: string;
  status: 'succeeded' | 'failed' | 'cancelled' | 'skipped' | 'pending';
  summary?: string;
  /** Non-iterated tasks: the accepted output. */
  output?: unknown;
  /** Iterated tasks: each item's record. */
  items?: Array<{
    index: number;
    itemId: string;
    status: 'succeeded' | 'failed';
    output?: unknown;
    error?: string;
  }>;
  route?: string | null;
  error?: string;
}

export interface RunResult {
  runId: string;
  status: FinalStatus;
  /** Missions in the order they ran (the first, then chained ones). */
  missions: Array<{ name: string; status: FinalStatus; error?: string }>;
  tasks: TaskResult[];
  /** Tokens of the whole run (a resumed run counts its earlier sessions). */
  tokens: number;
  /** Whole pico-dollars (10⁻¹² USD), of the whole run like `tokens`. */
  costPico: bigint;
  /** The same cost in dollars, as a number (exact to about 15 digits). */
  costDollars: number;
  /** True when some model had no known price. */
  unpriced: boolean;
  /** What `JSON.stringify` writes: `costPico` as a decimal string (JSON has no BigInt). */
  toJSON(): RunResultJson;
}

/** A RunResult as JSON: `costPico` as a decimal string, everything else as it is. */
export type RunResultJson = Omit<RunResult, 'costPico' | 'toJSON'> & { costPico: string };

export interface RunHandle {
  runId: string;
  bus: EventBus;
  /** Settles when the run has finished and its journal is flushed; never rejects. */
  done: Promise<RunResult>;
  /**
   * Cancel the run (first Ctrl-C): abort in-flight requests and tools, journal, finish.
   * `reason` is what the journal and the output say (default: {@link CANCELLED_BY_USER}).
   */
  cancel(reason?: string): void;
  /** Where the person's answers go (`answer`), for the terminal UI and the terminal. */
  human: HumanDesk;
  /** Where the person raises a budget's limit for the rest of the run (the TUI's prompt). */
  budgets: BudgetRaising;
}

/** One model request of one actor. */
export interface ModelTurnRequest {
  /** Stable actor id (`commander:analyze[3]`, `agent:analyze/researcher`). */
  actor: string;
  /** The task whose budget the turn counts toward. */
  task: string;
  model: ResolvedModel;
  reasoning?: ReasoningLevel;
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  /** A limit on the reply's tokens (an MCP server's sampling sets one); default: the provider's. */
  maxOutputTokens?: number;
  /** An MCP server's sampling request: answered outside the actor's conversation. */
  sampling?: boolean;
  /** False: the model is asked for one tool call per reply (agents' `parallel_tool_calls`). */
  parallelToolCalls?: boolean;
  signal: AbortSignal;
}

export interface ModelTurnResult {
  response: ModelResponse;
  costPico: bigint;
  unpriced: boolean;
}

/**
 * Runs one model turn the way every actor must: wait at the step gate, check budgets (nothing
 * is sent once a limit is reached), emit `model.request`, stream (`model.delta`, `model.retry`),
 * emit `model.response` with usage and cost, record budgets (warning / exceeded).
 */
export type RunModelTurn = ((request: ModelTurnRequest) => Promise<ModelTurnResult>) & {
  /**
   * The actors will not send again (a settled item's commander and agents): the run forgets
   * what it kept of them, their turn counts too unless `keepTurns` (an actor of the same id
   * may still come).
   */
  release(actors: readonly string[], options: { keepTurns: boolean }): void;
};

/** The run-scoped services every actor of one mission shares. */
export interface RunServices {
  runId: string;
  config: Config;
  mission: MissionConfig;
  bus: EventBus;
  gate: StepGate;
  budgets: BudgetTracker;
  costs: CostLedger;
  knowledge: KnowledgeStore;
  questions: QuestionStore;
  /** Questions agents ask the person running the mission (`builtins_human_ask`). */
  human: HumanAskers;
  datasets: DatasetStore;
  results: ResultStore;
  slots: SlotSet;
  /** The run's MCP servers, shared by every agent of the run (chained missions included). */
  mcp: McpPool;
  /** Protected input values by input name, for `${secrets.NAME}` substitution. */
  secrets: Map<string, string>;
  /** Tools registered as TypeScript functions, by the name `tools.NAME` gives them. */
  functionTools: ReadonlyMap<string, AgentTool>;
  /** Replaces every secret value (variables, protected inputs, API keys) with `••••`. */
  redact: (text: string) => string;
  /** Validated mission inputs with defaults applied (file inputs as slot references). */
  inputs: Record<string, unknown>;
  stateDir: string;
  runDir: string;
  runModelTurn: RunModelTurn;
  signal: AbortSignal;
  /** `--queue`: where parallel items run (see RunOptions.itemQueue). */
  itemQueue?: ItemQueue;
  /**
   * On a worker of a distributed run: the run process answers the commanders' question tools
   * (the commanders asked and the question store are there), for the item `task[index]`.
   */
  remoteQuestions?: (task: string, ...call: Parameters<QuestionTools>) => Promise<ToolOutcome>;
}

export type AgentCallResult = { ok: true; result: string } | { ok: false; reason: string };

/**
 * One agent's conversation inside one commander (`call_agent` continues it), plus the
 * no-tools fork that `ask_agent` questions build on.
 */
export interface AgentSession {
  readonly agent: AgentConfig;
  /** `agent:analyze[3]/researcher`. */
  readonly actorId: string;
  /** True once a `call` has finished (successfully or not). */
  readonly finishedOnce: boolean;
  call(task: string, by: InvokedBy): Promise<AgentCallResult>;
  /**
   * Resumed run: finishes the call whose task message is `opening` in the restored
   * conversation — its answer if it had one, else the agent continues from its last message.
   */
  resumeCall(opening: number, by: InvokedBy): Promise<AgentCallResult>;
  /** Answers from the existing conversation with no tools offered; later questions continue the fork. */
  ask(question: string, signal: AbortSignal): Promise<AgentCallResult>;
  messages(): readonly Message[];
}

/** Where an agent session runs: its task (and item) and the commander that owns it. */
export interface AgentSessionSpec {
  agent: AgentConfig;
  task: string;
  index?: number;
  /** Resumed run: the conversation the journal kept, and the results of its finished tool calls. */
  restored?: RestoredConversation;
}

/** A conversation rebuilt from the journal. */
export interface RestoredConversation {
  messages: readonly Message[];
  /** The journaled result of one of this actor's tool calls, when it finished. */
  toolResult(callId: string): { content: string; isError: boolean } | undefined;
  /** Whether an MCP server asked the person (elicitation) during this actor's tool call. */
  serverAsked?(callId: string): boolean;
  /** Agents: the skills it had loaded, in load order (from the journal's `load_skill` calls). */
  loadedSkills?: readonly string[];
}

export type CreateAgentSession = (services: RunServices, spec: AgentSessionSpec) => AgentSession;
