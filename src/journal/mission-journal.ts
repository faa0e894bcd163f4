/**
 * What one mission left in a run journal, as `sortie resume` needs it back: succeeded tasks
 * and items, every conversation, finished tool calls' results, plans, submitted outputs,
 * spending, questions and datasets written at run time.
 */
import type { Message, Usage } from '../models/model-types.ts';
import type { EventOf, Subtask } from '../base/events.ts';

/** A tool call's journaled result (`tool.completed`), for calls a crash left unanswered. */
export interface JournaledToolResult {
  content: string;
  isError: boolean;
}

/** A task the journal says succeeded. */
export interface SucceededTask {
  summary: string;
  output: unknown;
  route: string | null;
}

/** A parallel item the journal says succeeded. */
export interface SucceededItem {
  index: number;
  itemId: string;
  output: unknown;
}

/** A dataset write made while the mission ran (items as the tool passed them). */
export interface DatasetWriteRecord {
  dataset: string;
  items: unknown[];
  appended: boolean;
}

/** One model turn's spending, by the task whose budget it counts toward. */
export interface JournaledSpending {
  task: string;
  usage: Usage;
  costPico: bigint;
}

/** A question to a commander, with its answer when one came. */
export interface JournaledQuestion {
  /** The task whose commander was asked. */
  task: string;
  iteration: number | null;
  question: string;
  askedBy: string;
  answer?: string;
}

/** Everything one mission left in the journal. */
export interface MissionJournal {
  succeededTasks: Map<string, SucceededTask>;
  /** Conversations by id (actor id, or `ACTOR#fork`), messages in append order. */
  conversations: Map<string, Message[]>;
  /** By `toolResultKey(actor, callId)`. */
  toolResults: Map<string, JournaledToolResult>;
  /** The last plan of each commander actor. */
  plans: Map<string, Subtask[]>;
  /** The last submitted output of each commander actor, by item index (null: not iterated). */
  outputs: Map<string, Map<number | null, unknown>>;
  /** Succeeded parallel items by task. */
  items: Map<string, Map<number, SucceededItem>>;
  /** The attempt each parallel item's commander was on. */
  attempts: Map<string, number>;
  datasetWrites: DatasetWriteRecord[];
  /** Every model turn's spending, so budgets keep counting across the restart. */
  spending: JournaledSpending[];
  /** Limits the person raised (`budget.raised`), in order: a resumed run keeps them. */
  budgetRaises: Array<EventOf<'budget.raised'>>;
  /** Questions to commanders by target task, in the order asked (index = question index). */
  questions: Map<string, JournaledQuestion[]>;
  /** Skills each agent actor loaded (a `load_skill` call with an ok result), in load order. */
  loadedSkills: Map<string, string[]>;
  /** `load_skill` calls waiting for their result, by `toolResultKey`: the skill each names. */
  skillLoads: Map<string, string>;
  /** Tool calls during which an MCP server asked the person (elicitation), by `toolResultKey`. */
  elicitingCalls: Set<string>;
}

/** The key of `MissionJournal.toolResults`. */
export function toolResultKey(actor: string, callId: string): string {
  return `${actor}\u0000${callId}`;
}

/** A mission journal that holds nothing yet. */
export function emptyMissionJournal(): MissionJournal {
  return {
    succeededTasks: new Map(),
    conversations: new Map(),
    toolResults: new Map(),
    plans: new Map(),
    outputs: new Map(),
    items: new Map(),
    attempts: new Map(),
    datasetWrites: [],
    spending: [],
    budgetRaises: [],
    questions: new Map(),
    loadedSkills: new Map(),
    skillLoads: new Map(),
    elicitingCalls: new Set(),
  };
}
