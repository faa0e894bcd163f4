/**
 * The JSON text of an event, made once: the bus's redaction reads the whole event as one text
 * (a single pass of the secrets pattern instead of one per string) and the journal writes that
 * same text, so an event is stringified once on its way to disk. Events are never changed after
 * they are emitted, which is what makes the cached text safe to reuse.
 *
 * The texts wait in a small ring, not a WeakMap: the journal asks for an event's text while
 * the bus delivers it, or a few events later when its file was still opening, so the last
 * `REMEMBERED` events are enough, and a ring costs no ephemeron work for the collector. An
 * event that has left the ring is stringified again (correct, only slower).
 */
import type { MissionEvent } from './events.ts';

const REMEMBERED = 16;
const events: Array<MissionEvent | undefined> = new Array<MissionEvent | undefined>(REMEMBERED);
const texts: Array<string | undefined> = new Array<string | undefined>(REMEMBERED);
let next = 0;

/** Remembers `json` as the text of `event`. */
export function rememberEventJson(event: MissionEvent, json: string): void {
  events[next] = event;
  texts[next] = json;
  next = (next + 1) % REMEMBERED;
}

/** The event's JSON text: the remembered one, or made now. */
export function eventJson(event: MissionEvent): string {
  // The newest first: the journal usually asks for the event just remembered.
  for (let step = 1; step <= REMEMBERED; step++) {
    const slot = (next - step + REMEMBERED) % REMEMBERED;
    if (events[slot] === event) return texts[slot]!;
  }
  return JSON.stringify(event);
}
