/**
 * What `sortie resume` rebuilds from a run journal: the missions in the order they ran and,
 * for each, what its actors left behind (`MissionJournal`, filled by `collectMissionEvent`),
 * plus the run's totals, answered turns and fork origin. Pure: events in, plain data out; the
 * actors layer turns it back into running state.
 */
import type {
  ChatStart,
  MissionEvent,
  Outcome,
  PinnedResponse,
  RunTotals,
} from '../base/events.ts';
import { entryOf } from '../base/per-object.ts';
import { RunTotalsTally } from './run-totals.ts';
import { emptyMissionJournal, type MissionJournal } from './mission-journal.ts';
import { collectMissionEvent } from './collect-mission-event.ts';

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

function setOutcome(
  missions: Map<string, JournaledMission>,
  mission: string,
  outcome: Outcome,
): void {
  const known = missions.get(mission);
  if (known !== undefined) known.outcome = outcome;
}
