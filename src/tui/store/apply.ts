/** Folds a batch of events into a new snapshot, sharing everything the batch did not touch. */
import { actorId, type MissionEvent } from '../../base/events.ts';
import { eventText, type EventTextContext } from '../../present/event-text.ts';
import { totalsText } from '../../present/money.ts';
import { noPaint } from '../../present/paint.ts';
import { ensureActor } from './actor-tree.ts';
import { StateDraft } from './draft.ts';
import { reduceActivity } from './reduce-activity.ts';
import { reduceWarnedBudgets } from './reduce-budgets.ts';
import { reduceCost } from './reduce-costs.ts';
import { reduceHuman } from './reduce-human.ts';
import { reduceItemStats } from './reduce-item-stats.ts';
import { reduceItems } from './reduce-items.ts';
import { reduceRun } from './reduce-run.ts';
import { reduceTasks } from './reduce-tasks.ts';
import type { TuiState } from './state.ts';

/** What the event table may ask the store: item counts and run totals (no config, no colour). */
function textContext(draft: StateDraft): EventTextContext {
  return {
    paint: noPaint,
    itemCount: (task) => draft.actor(actorId.task(task))?.iteration?.total ?? undefined,
    dependencies: () => [],
    runTotals: () => {
      const { taskCount, tokens, costPico, unpriced } = draft.header;
      return totalsText(taskCount, tokens, costPico, unpriced);
    },
  };
}

function applyOne(draft: StateDraft, event: MissionEvent, context: EventTextContext): void {
  // Deltas are display-only and arrive by the hundred; the log would drown in them.
  if (event.type !== 'model.delta') {
    draft.appendLog({
      seq: event.seq,
      time: event.time,
      actor: event.actor,
      type: event.type,
      text: eventText(event, context),
    });
  }
  draft.patchHeader(
    draft.header.runId === null
      ? { runId: event.runId, lastEventAt: event.time }
      : { lastEventAt: event.time },
  );
  if (event.type === 'model.response') reduceCost(draft, event);
  reduceItemStats(draft, event);
  reduceWarnedBudgets(draft, event);
  // Each reducer takes its own event types; the first that knows the event applies it.
  if (
    !reduceRun(draft, event) &&
    !reduceTasks(draft, event) &&
    !reduceItems(draft, event) &&
    !reduceHuman(draft, event)
  ) {
    reduceActivity(draft, event);
  }
  ensureActor(draft, event.actor);
}

/** The snapshot after `events`; `base` itself is never changed. */
export function applyEvents(base: TuiState, events: readonly MissionEvent[]): TuiState {
  if (events.length === 0) return base;
  const draft = new StateDraft(base);
  const context = textContext(draft);
  for (const event of events) applyOne(draft, event, context);
  return draft.state;
}
