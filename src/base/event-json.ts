/**
 * The JSON text of an event, made once: the bus's redaction reads the whole event as one text
 * (a single pass of the secrets pattern instead of one per string) and the journal writes that
 * same text, so an event is stringified once on its way to disk. Events are never changed after
 * they are emitted, which is what makes the cached text safe to reuse.
 */
import type { MissionEvent } from './events.ts';

const texts = new WeakMap<MissionEvent, string>();

/** Remembers `json` as the text of `event`. */
export function rememberEventJson(event: MissionEvent, json: string): void {
  texts.set(event, json);
}

/** The event's JSON text: the remembered one, or made now. */
export function eventJson(event: MissionEvent): string {
  return texts.get(event) ?? JSON.stringify(event);
}
