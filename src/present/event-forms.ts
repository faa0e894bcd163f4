/** The shape of the event→text table (event-text.ts) and what a surface tells it. */
import type { EventOf, MissionEventType } from '../base/events.ts';
import type { Painter } from './paint.ts';

/** Columns an excerpt (an error, a summary, arguments) may take inside an event's text. */
export const EXCERPT = 80;

/**
 * Columns the first line of an error or a cancel reason may take: a message cut in the middle
 * loses what to fix, so it is shown whole unless it is a runaway line (a response body).
 */
export const ERROR_LINE = 400;

/** What a surface knows beyond the event itself; the plain log and the TUI store each supply it. */
export interface EventTextContext {
  /** Colours for a terminal (the TUI passes the painter that never colours: Ink colours rows). */
  paint: Painter;
  /** Items locked for an iterated task of the current mission; undefined until known. */
  itemCount(task: string): number | undefined;
  /** The `depends_on` names of a task of the current mission (empty when unknown). */
  dependencies(task: string): readonly string[];
  /** `12 tasks · 48,210 tokens · $0.4121`: what the run has done so far. */
  runTotals(mission: string): string;
}

/** How one event type reads. */
export interface EventForms<T extends MissionEventType> {
  /** The text every surface shows: the Events tab, and the plain log unless `log` is given. */
  text(event: EventOf<T>, context: EventTextContext): string;
  /**
   * The plain log's line where it differs: undefined when the event is not worth a line there
   * (deltas, requests, appended messages; the Events tab lists them all).
   */
  log?(event: EventOf<T>, context: EventTextContext): string | undefined;
}

/** Forms for some event types; the table joins them and TypeScript checks it lacks none. */
export type EventFormTable<T extends MissionEventType> = { [K in T]: EventForms<K> };

/** The `log` of an event type the plain log leaves out. */
export function noLine(): undefined {
  return undefined;
}
