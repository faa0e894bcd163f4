/**
 * THE table from event type to text. Every surface that shows an event (the plain log, the
 * TUI's Events tab) reads it here, so one event reads the same everywhere; an entry gives the
 * plain log its own form only where the log needs one (or no line at all). The table's type
 * names every `MissionEventType`, so a new event type does not compile until it has a text.
 */
import type { MissionEvent, MissionEventType } from '../base/events.ts';
import { ACTOR_FORMS } from './event-text-actor.ts';
import { WORK_FORMS } from './event-text-run.ts';
import type { EventFormTable, EventForms, EventTextContext } from './event-forms.ts';

export const EVENT_TEXT: EventFormTable<MissionEventType> = { ...WORK_FORMS, ...ACTOR_FORMS };

function formsOf(event: MissionEvent): EventForms<MissionEventType> {
  // The table maps each type to the forms of that type; TypeScript cannot follow the
  // correlation through a union, so the lookup is widened here, once.
  return EVENT_TEXT[event.type] as EventForms<MissionEventType>;
}

/** The text of an event as every surface shows it. */
export function eventText(event: MissionEvent, context: EventTextContext): string {
  return formsOf(event).text(event, context);
}

/** The plain log's text of an event, or undefined when the event gets no line there. */
export function eventLogText(event: MissionEvent, context: EventTextContext): string | undefined {
  const forms = formsOf(event);
  return forms.log === undefined ? forms.text(event, context) : forms.log(event, context);
}

export { EXCERPT, type EventTextContext } from './event-forms.ts';
export { skipText } from './event-text-run.ts';
