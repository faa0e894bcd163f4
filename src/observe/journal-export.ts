/**
 * `sortie export RUN_ID --otlp`: a journaled run sent as traces through the same span builder
 * as a live run, with the journal's own times. A fork's journal begins with its parent's events
 * (up to `run.forked`): those are the parent's spans, read only for the link to the fork point.
 */
import type { MissionEvent } from '../base/events.ts';
import { readJournal } from '../journal/reader.ts';
import type { TraceSettings } from './settings.ts';
import { openTraceExport } from './trace-export.ts';

/** What an export sent. */
export interface JournalExport {
  events: number;
  /** Run sessions (`run.started`), one trace each. */
  traces: number;
}

/** Where a journal's own part starts: after its last `run.forked`, else at its start. */
export function ownPartStart(events: readonly MissionEvent[]): number {
  for (let index = events.length - 1; index >= 0; index--) {
    if (events[index]?.type === 'run.forked') return index + 1;
  }
  return 0;
}

/** Sends the journal at `path` as traces; resolves once sent (or given up on, with a warning). */
export async function exportJournal(
  path: string,
  settings: TraceSettings,
  warn: (message: string) => void,
): Promise<JournalExport> {
  const { events } = await readJournal(path);
  const sink = openTraceExport(settings, warn);
  const start = ownPartStart(events);
  let traces = 0;
  events.forEach((event, index) => {
    if (index < start) return sink.remember(event);
    if (event.type === 'run.started') traces += 1;
    sink.add(event);
  });
  await sink.close();
  return { events: events.length - start, traces };
}
