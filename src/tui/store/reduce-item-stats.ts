/**
 * What the item table shows of each item beyond its output: the attempt, the model turns and
 * spending of its commander and agents, and how long it took; read from the iteration and
 * response events.
 */
import { parseActorId, type EventOf, type MissionEvent } from '../../base/events.ts';
import type { StateDraft } from './draft.ts';
import { patchItemStats, usageTokens } from './outputs.ts';

/** The item an actor works for (`agent:visit[3]/reader` → visit, 3); null outside items. */
function itemOf(actor: string): { task: string; index: number } | null {
  const parsed = parseActorId(actor);
  if (parsed === undefined || parsed.index === null) return null;
  if (parsed.kind !== 'commander' && parsed.kind !== 'agent') return null;
  return { task: parsed.name, index: parsed.index };
}

function elapsedMs(from: string, to: string): number {
  return Math.max(0, Date.parse(to) - Date.parse(from));
}

function onResponse(draft: StateDraft, event: EventOf<'model.response'>): void {
  const item = itemOf(event.actor);
  if (item === null) return;
  // Counted as the actor tree's addSpend counts it, so the row matches the commander's node.
  const unpriced = event.unpriced && event.model.provider !== 'ollama';
  patchItemStats(draft, item.task, item.index, (stats) => ({
    turns: stats.turns + 1,
    tokens: stats.tokens + usageTokens(event.usage),
    costPico: stats.costPico + BigInt(event.costPico),
    unpriced: stats.unpriced || unpriced,
  }));
}

/** Counts an event into its item's stats; events of no item are left alone. */
export function reduceItemStats(draft: StateDraft, event: MissionEvent): void {
  switch (event.type) {
    case 'iteration.started':
      patchItemStats(draft, event.task, event.index, () => ({
        attempt: event.attempt,
        startedAt: event.time,
        durationMs: null,
      }));
      return;
    case 'iteration.succeeded':
      patchItemStats(draft, event.task, event.index, () => ({ durationMs: event.durationMs }));
      return;
    case 'iteration.failed':
      // A failed attempt with retries left is not the item's end.
      if (!event.final) return;
      patchItemStats(draft, event.task, event.index, (stats) => ({
        durationMs: stats.startedAt === null ? null : elapsedMs(stats.startedAt, event.time),
      }));
      return;
    case 'model.response':
      onResponse(draft, event);
      return;
    default:
      return;
  }
}
