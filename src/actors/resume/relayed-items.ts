/**
 * The finished item commanders of a parallel task whose items ran on workers (`--queue`). The
 * run's process never ran them, so `ask_commander` and `ask_agent` would find none: each is
 * rebuilt, once its try has settled, from the events its worker relayed onto the run's bus —
 * the events the run's journal holds — exactly as `sortie resume` rebuilds a finished
 * commander from the journal (`keepRestoredCommander`, the same journal collector). Only the
 * items in flight hold their events here; a kept commander is one position in the registry's
 * conversation file, as a local one is, so a 100,000-item task keeps nothing else per item.
 */
import { actorId, parseActorId, type MissionEvent } from '../../base/events.ts';
import { entryOf } from '../../base/per-object.ts';
import { collectMissionEvent } from '../../journal/collect-mission-event.ts';
import { emptyMissionJournal, type MissionJournal } from '../../journal/mission-journal.ts';
import type { PreparedTask } from '../mission/task-preparation.ts';
import { keepRestoredCommander } from './restore-task.ts';

/** What the run's process says of a try after it settled: never part of its conversation. */
const SETTLING: ReadonlySet<MissionEvent['type']> = new Set([
  'iteration.succeeded',
  'iteration.failed',
  'iteration.retrying',
]);

/** The items of one parallel task in flight on workers, their relayed events collected. */
export class RelayedItems {
  private readonly task: string;
  private readonly journals = new Map<number, MissionJournal>();
  private readonly unsubscribe: () => void;

  constructor(private readonly prepared: PreparedTask) {
    this.task = prepared.config.name;
    this.unsubscribe = prepared.runtime.services.bus.subscribe((event) => this.see(event));
  }

  /** Keeps item `index`'s commander in the registry: its try settled, its events are all here. */
  keep(index: number): void {
    const journal = this.journals.get(index);
    this.journals.delete(index);
    if (journal !== undefined) keepRestoredCommander(this.prepared, journal, index);
  }

  /** Stops collecting (the task's iteration is over). */
  close(): void {
    this.unsubscribe();
    this.journals.clear();
  }

  private see(event: MissionEvent): void {
    const id = event.type === 'message.appended' ? event.conversation : event.actor;
    // Forks (`…#fork`) do not parse: an item is asked only once it has finished.
    const actor = parseActorId(id);
    if (actor === undefined || actor.name !== this.task || actor.index === null) return;
    if (SETTLING.has(event.type)) {
      // A try that ended unkept (failed, retried): the next try starts afresh, as locally.
      this.journals.delete(actor.index);
      return;
    }
    const { index } = actor;
    const journal = entryOf(this.journals, index, () => this.startJournal(index));
    collectMissionEvent(journal, event);
  }

  /**
   * The item's journal; in a resumed run it starts from what the run's journal held of the
   * item before the restart (the worker's later events come relayed).
   */
  private startJournal(index: number): MissionJournal {
    const journal = emptyMissionJournal();
    const restore = this.prepared.runtime.restore;
    if (restore === undefined) return journal;
    const ids = [
      actorId.commander(this.task, index),
      ...[...this.prepared.agents.keys()].map((agent) => actorId.agent(this.task, agent, index)),
    ];
    for (const id of ids) {
      const messages = restore.conversations.get(id);
      if (messages !== undefined) journal.conversations.set(id, [...messages]);
      const skills = restore.loadedSkills.get(id);
      if (skills !== undefined) journal.loadedSkills.set(id, [...skills]);
      restore.conversations.delete(id);
    }
    return journal;
  }
}
