/**
 * One line of the plain log per meaningful event: `00:03.2 task:analyze  started (depends on
 * fetch)`. The text is the event table's (src/present/event-text.ts); this adds the elapsed
 * time and the actor, and tells the table what the log has seen so far.
 */
import type { MissionEvent } from '../../base/events.ts';
import { eventLogText, type EventTextContext } from '../../present/event-text.ts';
import { totalsText } from '../../present/money.ts';
import { formatElapsed } from '../../present/numbers.ts';
import { noPaint, type Painter } from '../../present/paint.ts';
import { finishedTasks, taskKey, type LogState } from './log-state.ts';

/** The line for an event (no newline), or undefined when the event is not worth a line. */
export function formatEventLine(
  event: MissionEvent,
  state: LogState,
  paint: Painter = noPaint,
): string | undefined {
  const message = eventLogText(event, logContext(state, paint));
  if (message === undefined) return undefined;
  const elapsed = formatElapsed(Date.parse(event.time) - (state.startMs ?? Date.parse(event.time)));
  return `${paint('dim', elapsed)} ${paint('accent', event.actor)}  ${message}`;
}

/** What the event table may ask the log about. */
export function logContext(state: LogState, paint: Painter): EventTextContext {
  return {
    paint,
    itemCount: (task) => state.iterationTotals.get(taskKey(state, task)),
    dependencies: (task) => state.dependencies.get(taskKey(state, task)) ?? [],
    runTotals: (mission) => missionTotals(state, mission),
  };
}

/** `12 tasks · 48,210 tokens · $0.4121` (`+ unpriced` when some model had no price). */
export function missionTotals(state: LogState, mission: string): string {
  const tasks = finishedTasks(state, mission).length;
  return totalsText(tasks, state.tokens, state.costPico, state.unpriced);
}
