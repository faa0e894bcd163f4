import { openJournal, type JournalWriter } from '../journal/writer.ts';
import { runPaths } from '../journal/paths.ts';
import { UNJOURNALED_TYPES, type MissionEvent } from '../base/events.ts';
import type { EventListener } from '../runtime/event-bus.ts';

/** A journal that opens itself on the run's first event (the event carries the run id). */
export interface LazyJournal {
  /** Not called by the bus for events no journal keeps (`ignoredTypes`). */
  subscriber: EventListener;
  /** Resolves once every event received so far is written (rejects on a write error). */
  flush(): Promise<void>;
  /** Writes everything and closes; rejects with the journal's first write error. */
  close(): Promise<void>;
}

/** Told once when the journal cannot be opened or written, with the journal's path. */
export type JournalFailureListener = (error: unknown, path: string) => void;

/**
 * Attaches the journal without knowing the run id in advance: events wait in memory while
 * `runs/RUN_ID/` is created, then go to the writer in order. A run that fails before its
 * first event leaves no journal behind. `onFailure` hears of the first open or write error
 * as it happens, so the run can be stopped instead of going on unrecorded. `fresh`: a new run
 * (not a resumed one), whose journal is created exclusively (see `openJournal`).
 */
export function lazyJournal(
  stateDir: string,
  onFailure?: JournalFailureListener,
  options: { fresh?: boolean } = {},
): LazyJournal {
  const waiting: MissionEvent[] = [];
  let writer: JournalWriter | undefined;
  let opening: Promise<JournalWriter> | undefined;
  const subscriber = (event: MissionEvent): void => {
    if (writer !== undefined) {
      writer.subscriber(event);
      return;
    }
    waiting.push(event);
    if (opening !== undefined) return;
    const paths = runPaths(stateDir, event.runId);
    const report = (error: unknown): void => onFailure?.(error, paths.journal);
    opening = openJournal(paths.dir, { onFailure: report, fresh: options.fresh === true }).then(
      (opened) => {
        writer = opened;
        for (const early of waiting.splice(0)) opened.subscriber(early);
        return opened;
      },
    );
    // Reported by close() too; until then the rejection must not count as unhandled.
    opening.catch(report);
  };
  return {
    subscriber: Object.assign(subscriber, { ignoredTypes: UNJOURNALED_TYPES }),
    async flush() {
      if (opening === undefined) return;
      await (await opening).flush();
    },
    async close() {
      if (opening === undefined) return;
      const opened = await opening;
      await opened.close();
      if (opened.failure !== undefined) throw opened.failure;
    },
  };
}
