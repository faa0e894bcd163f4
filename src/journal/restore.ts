/**
 * What `sortie resume` rebuilds from a run journal: the missions in the order they ran and,
 * for each, what its actors left behind — succeeded tasks and items, every conversation, the
 * results of tool calls that finished, plans, submitted outputs and datasets written at run
 * time. Pure: events in, plain data out; the actors layer turns it back into running state.
 */
import type { Message, Usage } from '../models/model-types.ts';
import {
  actorId,
  parseActorId,
  type ChatStart,
  type EventOf,
  type MissionEvent,
  type Outcome,
  type PinnedResponse,
  type RunTotals,
  type Subtask,
} from '../base/events.ts';
import { applyContextCut } from '../runtime/context-window.ts';
import { entryOf } from '../base/per-object.ts';
import { RunTotalsTally } from './run-totals.ts';
import { LOAD_SKILL } from '../tools/skills/load-skill.ts';
import { elicitingCallOf } from '../tools/mcp/mcp-elicitation.ts';

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

/** A mission as the journal saw it start and (maybe) end. */
export interface JournaledMission {
  name: string;
  /** Protected inputs masked as the journal holds them. */
  inputs: Record<string, unknown>;
  chainedFrom: string | null;
  /** Null while it had not finished when the journal ends. */
  outcome: Outcome | null;
}

/** A whole run as its journal left it. */
export interface RunJournalState {
  runId: string;
  lastSeq: number;
  /** Missions in the order they first started. */
  missions: JournaledMission[];
  journals: Map<string, MissionJournal>;
  /** How the last session of the run ended; null when it stopped without `run.finished`. */
  finished: Outcome | null;
  /** What the run had spent and how long it had run, over all its sessions. */
  totals: RunTotals;
  /**
   * Answered model turns per actor over the whole run: a resumed actor's next request is
   * turn N + 1, the number its cassette entry has (see `AnsweredTurns`).
   */
  answeredTurns: Map<string, number>;
  /** The run this one was forked from and the event it forked at (the last `run.forked`). */
  forkedFrom: { runId: string; seq: number } | null;
  /** A fork's kept reply its actor has not had yet (see `run.forked`). */
  pinned: PinnedResponse | null;
  /** `sortie chat`: the agent of the conversation (and its `--task`), from `run.started`. */
  chat?: ChatStart;
  /** `--queue`: the relay position of the last event a worker sent (its `relay`), if any. */
  relayed?: string;
}

/**
 * The mission a resumed run continues: the first that had not succeeded; when all had (the
 * run stopped between missions), the last, whose restored tasks lead on to the mission it
 * chains to. Undefined when no mission had started.
 */
export function missionToResume(state: RunJournalState): JournaledMission | undefined {
  return state.missions.find((mission) => mission.outcome !== 'succeeded') ?? state.missions.at(-1);
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

/**
 * Reads a run's events into its resumable state. Events belong to the mission whose
 * `mission.started` came last before them (chained missions run one after another).
 */
export function restoreFromJournal(runId: string, events: Iterable<MissionEvent>): RunJournalState {
  const missions = new Map<string, JournaledMission>();
  const journals = new Map<string, MissionJournal>();
  let lastSeq = 0;
  let finished: Outcome | null = null;
  let current: MissionJournal | undefined;
  const totals = new RunTotalsTally();
  const turns = new AnsweredTurns();
  let forkedFrom: RunJournalState['forkedFrom'] = null;
  let pinned: PinnedResponse | null = null;
  let chat: ChatStart | undefined;
  let relayed: string | undefined;
  for (const event of events) {
    lastSeq = Math.max(lastSeq, event.seq);
    // Relayed events reach the journal in stream order: the last one is the furthest.
    if (event.relay !== undefined) relayed = event.relay;
    totals.add(event);
    turns.see(event);
    if (event.type === 'run.started') {
      finished = null;
      chat = event.chat;
    }
    if (event.type === 'run.finished') finished = event.outcome;
    if (event.type === 'run.forked') {
      forkedFrom = { runId: event.parentRunId, seq: event.atSeq };
      pinned = event.response ?? null;
    }
    if (event.type === 'model.response' && event.actor === pinned?.actor) pinned = null;
    if (event.type === 'mission.started') {
      const known = missions.get(event.mission);
      if (known === undefined) {
        missions.set(event.mission, {
          name: event.mission,
          inputs: event.inputs,
          chainedFrom: event.chainedFrom,
          outcome: null,
        });
      } else {
        known.outcome = null;
      }
      current = entryOf(journals, event.mission, emptyMissionJournal);
      continue;
    }
    if (event.type === 'mission.succeeded') setOutcome(missions, event.mission, 'succeeded');
    if (event.type === 'mission.failed') setOutcome(missions, event.mission, 'failed');
    if (event.type === 'mission.cancelled') setOutcome(missions, event.mission, 'cancelled');
    if (current !== undefined) collectMissionEvent(current, event);
  }
  return {
    runId,
    lastSeq,
    missions: [...missions.values()],
    journals,
    finished,
    totals: totals.result(),
    answeredTurns: turns.counts(),
    forkedFrom,
    pinned,
    ...(chat !== undefined ? { chat } : {}),
    ...(relayed !== undefined ? { relayed } : {}),
  };
}

/**
 * Counts each actor's answered model turns (`model.response`). A response that is the actor's
 * last event was never acted on (the run stopped before its message was journaled): the
 * resumed actor sends that request again, as the same turn, so it does not count.
 */
class AnsweredTurns {
  private readonly answered = new Map<string, number>();
  private readonly unapplied = new Set<string>();

  see(event: MissionEvent): void {
    const actor = event.type === 'message.appended' ? event.conversation : event.actor;
    this.unapplied.delete(actor);
    if (event.type !== 'model.response') return;
    this.answered.set(actor, (this.answered.get(actor) ?? 0) + 1);
    this.unapplied.add(actor);
  }

  counts(): Map<string, number> {
    const counts = new Map(this.answered);
    for (const actor of this.unapplied) counts.set(actor, (counts.get(actor) ?? 1) - 1);
    return counts;
  }
}

/**
 * Drops what an ended commander left for continuing it: its conversation, plan and
 * non-item output, and its agents' conversations. Item outputs stay (a sequential task keeps
 * the outputs its items had accepted).
 */
function forget(journal: MissionJournal, commander: string, agentPrefix: string): void {
  for (const id of [...journal.conversations.keys()]) {
    if (id === commander || id.startsWith(`${commander}#`) || id.startsWith(agentPrefix)) {
      journal.conversations.delete(id);
    }
  }
  for (const id of [...journal.loadedSkills.keys()]) {
    if (id.startsWith(agentPrefix)) journal.loadedSkills.delete(id);
  }
  journal.plans.delete(commander);
  journal.outputs.get(commander)?.delete(null);
}

function setOutcome(
  missions: Map<string, JournaledMission>,
  mission: string,
  outcome: Outcome,
): void {
  const known = missions.get(mission);
  if (known !== undefined) known.outcome = outcome;
}

/**
 * Adds one event of a mission to what its journal holds. Also fed live, with the events a
 * distributed run's workers relay (actors/resume/relayed-items.ts).
 */
export function collectMissionEvent(journal: MissionJournal, event: MissionEvent): void {
  switch (event.type) {
    case 'message.appended':
      entryOf(journal.conversations, event.conversation, () => []).push(event.message);
      return;
    case 'tool.called':
      if (event.tool === LOAD_SKILL) {
        journal.skillLoads.set(
          toolResultKey(event.actor, event.callId),
          skillNamed(event.arguments),
        );
      }
      return;
    case 'context.compacted': {
      const messages = journal.conversations.get(event.conversation) ?? [];
      journal.conversations.set(event.conversation, applyContextCut(messages, event));
      return;
    }
    case 'tool.completed': {
      collectSkillLoad(journal, event.actor, event.callId, event.isError);
      // Used only for a call a crash left unanswered: a long result's blob stays unread till then.
      const completed = event;
      journal.toolResults.set(toolResultKey(event.actor, event.callId), {
        get content() {
          return completed.result;
        },
        isError: event.isError,
      });
      return;
    }
    case 'human.asked': {
      // A server's question: resume calls its tool again if the call had not finished.
      const asking = elicitingCallOf(event.callId);
      if (asking !== undefined) journal.elicitingCalls.add(toolResultKey(event.actor, asking));
      return;
    }
    case 'human.answered':
      // The person's answer counts even if the crash came before the call's `tool.completed`
      // (which, when journaled, replaces it with the same text); a withdrawn question is asked again.
      if (event.how !== 'cancelled') {
        journal.toolResults.set(toolResultKey(event.actor, event.callId), {
          content: event.answer,
          isError: false,
        });
      }
      return;
    case 'plan.updated':
      journal.plans.set(event.actor, event.subtasks);
      return;
    case 'output.submitted':
      entryOf(journal.outputs, event.actor, () => new Map()).set(event.index, event.output);
      return;
    case 'iteration.started':
      journal.attempts.set(event.actor, event.attempt);
      return;
    case 'iteration.succeeded':
      entryOf(journal.items, event.task, () => new Map()).set(event.index, {
        index: event.index,
        itemId: event.itemId,
        output: event.output,
      });
      return;
    case 'task.failed':
      // A failed commander's conversation is over: a resumed run starts that task afresh.
      forget(journal, actorId.commander(event.task), `agent:${event.task}/`);
      return;
    case 'iteration.failed':
      journal.attempts.delete(event.actor);
      forget(journal, event.actor, `agent:${event.task}[${event.index}]/`);
      return;
    case 'iteration.retrying':
      // Sequential retries name the task's one commander; parallel ones were forgotten above.
      if (event.actor === actorId.commander(event.task)) {
        forget(journal, event.actor, `agent:${event.task}/`);
      }
      return;
    case 'task.succeeded':
      journal.succeededTasks.set(event.task, {
        summary: event.summary,
        output: event.output,
        route: event.route,
      });
      return;
    case 'model.response': {
      // A question fork's turn counts toward the asking task, which its id does not name;
      // it is counted toward the task of the actor asked (the mission total is exact).
      const task = parseActorId(event.actor.split('#')[0] ?? '')?.name;
      if (task !== undefined && task !== '') {
        journal.spending.push({ task, usage: event.usage, costPico: BigInt(event.costPico) });
      }
      return;
    }
    case 'budget.raised':
      journal.budgetRaises.push(event);
      return;
    case 'question.asked': {
      const { task, iteration, question, askedBy } = event;
      entryOf(journal.questions, task, () => []).push({ task, iteration, question, askedBy });
      return;
    }
    case 'question.answered': {
      const asked = journal.questions.get(event.task)?.[event.questionIndex];
      if (asked !== undefined) asked.answer = event.answer;
      return;
    }
    case 'dataset.updated':
      if (event.items !== undefined) {
        journal.datasetWrites.push({
          dataset: event.dataset,
          items: event.items,
          appended: event.appended,
        });
      }
      return;
    default:
      return;
  }
}

/** The skill a `load_skill` call's arguments name, or '' when they name none. */
function skillNamed(argumentsJson: string): string {
  try {
    const name = (JSON.parse(argumentsJson) as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? name : '';
  } catch {
    return '';
  }
}

/** A finished `load_skill` call: an ok result means its skill was loaded. */
function collectSkillLoad(
  journal: MissionJournal,
  actor: string,
  callId: string,
  isError: boolean,
): void {
  const key = toolResultKey(actor, callId);
  const skill = journal.skillLoads.get(key);
  if (skill === undefined) return;
  journal.skillLoads.delete(key);
  if (isError || skill === '') return;
  const loaded = entryOf(journal.loadedSkills, actor, () => []);
  if (!loaded.includes(skill)) loaded.push(skill);
}
