/**
 * What the item table shows of each item beyond its output: the attempt, the model turns of
 * its commander and agents, and how long it took; read from the iteration and response events.
 */
import { parseActorId, type MissionEvent } from '../../base/events.ts';
import type { StateDraft } from './draft.ts';
import { commanderId } from './outputs.ts';

/** The item commander an actor works under (`agent:visit[3]/reader` → `commander:visit[3]`). */
function itemCommanderOf(actor: string): string | null {
  const parsed = parseActorId(actor);
  if (parsed === undefined || parsed.index === null) return null;
  if (parsed.kind !== 'commander' && parsed.kind !== 'agent') return null;
  return commanderId(parsed.name, parsed.index);
}

function elapsedMs(from: string, to: string): number {
  return Math.max(0, Date.parse(to) - Date.parse(from));
}

/** Counts an event into its item's stats; events of no item are left alone. */
export function reduceItemStats(draft: StateDraft, event: MissionEvent): void {
  switch (event.type) {
    case 'iteration.started': {
      const id = commanderId(event.task, event.index);
      const turns = draft.itemStats(id)?.turns ?? 0;
      draft.setItemStats(id, {
        attempt: event.attempt,
        turns,
        startedAt: event.time,
        durationMs: null,
      });
      return;
    }
    case 'iteration.succeeded':
    case 'iteration.failed': {
      const id = commanderId(event.task, event.index);
      const stats = draft.itemStats(id);
      if (stats === undefined) return;
      // A failed attempt with retries left is not the item's end.
      if (event.type === 'iteration.failed' && !event.final) return;
      const durationMs =
        event.type === 'iteration.succeeded'
          ? event.durationMs
          : elapsedMs(stats.startedAt, event.time);
      draft.setItemStats(id, { ...stats, durationMs });
      return;
    }
    case 'model.response': {
      const id = itemCommanderOf(event.actor);
      const stats = id === null ? undefined : draft.itemStats(id);
      if (id !== null && stats !== undefined)
        draft.setItemStats(id, { ...stats, turns: stats.turns + 1 });
      return;
    }
    default:
      return;
  }
}
