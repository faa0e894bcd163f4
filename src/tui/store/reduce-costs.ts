/**
 * Spending from `model.response`: cost rows per task, actor and model, the totals, the
 * header's running figures and the tree's per-node sums.
 */
import { parseActorId, type EventOf, type RunTotals } from '../../base/events.ts';
import { modelLabel } from '../../base/model-label.ts';
import { addSpend } from './actor-tree.ts';
import type { StateDraft } from './draft.ts';
import { usageTokens } from './outputs.ts';
import { emptyCostRow, type CostRow, type TokenUsage } from './state.ts';

/** The task an actor works for; mission-level actors are grouped as `(mission)`. */
function taskOfActor(actor: string): string {
  const parsed = parseActorId(actor);
  if (parsed === undefined || parsed.kind === 'run' || parsed.kind === 'mission') {
    return '(mission)';
  }
  return parsed.name;
}

/** What a model response, or a resumed run's earlier sessions, spent. */
interface Spent {
  requests: number;
  usage: TokenUsage;
  costPico: string;
  unpriced: boolean;
}

/** A cost row with `spent` added; a local model's spending is never unpriced. */
function withSpending(row: CostRow, spent: Spent, local: boolean): CostRow {
  return {
    key: row.key,
    requests: row.requests + spent.requests,
    input: row.input + spent.usage.input,
    cacheRead: row.cacheRead + spent.usage.cacheRead,
    cacheWrite: row.cacheWrite + spent.usage.cacheWrite,
    output: row.output + spent.usage.output,
    reasoning: row.reasoning + spent.usage.reasoning,
    reasoningEstimated: row.reasoningEstimated || spent.usage.reasoningEstimated === true,
    costPico: row.costPico + BigInt(spent.costPico),
    unpriced: row.unpriced || (spent.unpriced && !local),
    local: row.local || local,
  };
}

/** Counts one model response everywhere spending is shown. */
export function reduceCost(draft: StateDraft, event: EventOf<'model.response'>): void {
  // Local models are priced at $0 by the registry; an unpriced flag on them would mislead.
  const local = event.model.provider === 'ollama';
  const unpriced = event.unpriced && !local;
  const keys = {
    byTask: taskOfActor(event.actor),
    byActor: event.actor,
    byModel: modelLabel(event.model),
  } as const;
  const turn = { requests: 1, usage: event.usage, costPico: event.costPico, unpriced };
  for (const table of ['byTask', 'byActor', 'byModel'] as const) {
    const key = keys[table];
    const row = draft.costRow(table, key) ?? emptyCostRow(key);
    draft.setCostRow(table, withSpending(row, turn, table === 'byModel' && local));
  }
  draft.setCostTotal(withSpending(draft.state.costs.total, turn, false));
  const tokens = usageTokens(event.usage);
  const costPico = BigInt(event.costPico);
  draft.patchHeader({
    tokens: draft.header.tokens + tokens,
    costPico: draft.header.costPico + costPico,
    unpriced: draft.header.unpriced || unpriced,
  });
  addSpend(draft, event.actor, tokens, costPico, unpriced);
}

/** The per-task and per-actor row holding what a resumed run's earlier sessions spent. */
export const EARLIER_SESSIONS = '(before resume)';

/**
 * A resumed run starts from what its earlier sessions spent (`run.started`'s `before`): the
 * header, the totals, each model, and one `(before resume)` row per task and actor table. A
 * replayed journal has counted those responses one by one already and is left as it is.
 */
export function countEarlierSessions(draft: StateDraft, before: RunTotals): void {
  if (draft.state.costs.total.requests >= before.requests) return;
  const earlier = withSpending(emptyCostRow(EARLIER_SESSIONS), before, false);
  draft.setCostTotal({ ...earlier, key: 'total' });
  draft.setCostRow('byTask', earlier);
  draft.setCostRow('byActor', earlier);
  for (const spent of before.models) {
    const local = spent.model.provider === 'ollama';
    draft.setCostRow('byModel', withSpending(emptyCostRow(modelLabel(spent.model)), spent, local));
  }
  draft.patchHeader({
    tokens: usageTokens(before.usage),
    costPico: BigInt(before.costPico),
    unpriced: earlier.unpriced,
  });
}
