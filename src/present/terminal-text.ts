/**
 * The one gate between events and a terminal: every string an event carries (model text,
 * tool arguments and results, outputs, errors) has its control characters escaped before the
 * plain log, its summary or the TUI lays it out, so a hostile file or model cannot retitle,
 * recolour or redraw the terminal. sortie's own colours are added after, by the painters.
 */
import { escapeControlCharacters, hasControlCharacters } from '../base/control-characters.ts';
import type { MissionEvent } from '../base/events.ts';
import { setOwn } from '../base/own-property.ts';

/** The event with every string value escaped; the event itself when none needs it. */
export function terminalSafeEvent(event: MissionEvent): MissionEvent {
  return safeValue(event) as MissionEvent;
}

/** Copy-on-write: a branch without a control character is returned as it is. */
function safeValue(value: unknown): unknown {
  if (typeof value === 'string') {
    return hasControlCharacters(value) ? escapeControlCharacters(value) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const safe = safeValue(item);
      if (safe !== item && copy === undefined) copy = value.slice(0, index);
      copy?.push(safe);
    }
    return copy ?? value;
  }
  // Only plain data is walked: a Date or a BigInt-holding class instance is kept as it is.
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const safe = safeValue(item);
    if (safe === item) continue;
    copy ??= { ...value };
    setOwn(copy, key, safe);
  }
  return copy ?? value;
}
