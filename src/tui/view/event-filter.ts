/**
 * The Events tab's filter: whitespace-separated words that must all match. `actor=ID` matches
 * actor ids containing ID, `type=T` event types containing T, a bare word either of them.
 */
import type { EventLine, EventLog } from '../store/state.ts';

type Term = { field: 'actor' | 'type' | 'any'; text: string };

function parseFilter(filter: string): Term[] {
  return filter
    .trim()
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => {
      const lower = word.toLowerCase();
      if (lower.startsWith('actor=')) return { field: 'actor', text: lower.slice(6) };
      if (lower.startsWith('type=')) return { field: 'type', text: lower.slice(5) };
      return { field: 'any', text: lower };
    });
}

function termMatches(term: Term, line: EventLine): boolean {
  const actor = line.actor.toLowerCase();
  const type = line.type.toLowerCase();
  if (term.field === 'actor') return actor.includes(term.text);
  if (term.field === 'type') return type.includes(term.text);
  return actor.includes(term.text) || type.includes(term.text);
}

/** The log lines that pass the filter, oldest first. */
export function filterEvents(log: EventLog, filter: string): EventLine[] {
  const terms = parseFilter(filter);
  const lines = log.items.slice(0, log.length);
  if (terms.length === 0) return lines;
  return lines.filter((line) => terms.every((term) => termMatches(term, line)));
}
