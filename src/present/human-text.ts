/** How questions to the person and their answers read, in the plain log and the TUI alike. */
import type { EventOf } from '../base/events.ts';
import { firstLine } from './columns.ts';
import { EXCERPT } from './event-forms.ts';

/** `asks the person: Which region? [eu | us]` (the question's first line). */
export function humanAskedText(event: EventOf<'human.asked'>): string {
  const choices =
    event.choices.length === 0
      ? ''
      : ` [${event.choices.join(' | ')}]${event.multiSelect ? ' (several)' : ''}`;
  const wait = event.timeoutSeconds === null ? '' : ` (waits ${event.timeoutSeconds}s)`;
  return `asks the person: ${firstLine(event.question, EXCERPT)}${choices}${wait}`;
}

/** `answered: eu`, `answered by the script: eu`, or the notice the agent got. */
export function humanAnsweredText(event: EventOf<'human.answered'>): string {
  switch (event.how) {
    case 'person':
      return `answered: ${event.answer}`;
    case 'script':
      return `answered by the script: ${event.answer}`;
    case 'cancelled':
      return 'question withdrawn: the agent was stopped';
    default:
      return `not answered: ${event.answer}`;
  }
}
