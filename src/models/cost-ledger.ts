/**
 * Sums usage and cost per turn, actor, task, model and run — the figures of the TUI's Costs
 * tab and of budgets. Append-only; totals are kept incrementally so reads are O(groups).
 */
import { usageCost, type TurnCost } from './cost.ts';
import type { Pricing, Usage } from './types.ts';
import { addUsage, emptyUsage } from './usage.ts';

/** One model turn as the ledger records it. */
export interface TurnRecord {
  actor: string;
  /** The task the actor works for; undefined for mission-level turns. */
  task?: string;
  /** `models.CONFIG.KEY` of the model used. */
  model: string;
  usage: Usage;
  /** The resolved model's pricing (0 for local models, undefined when unpriced). */
  pricing: Pricing | undefined;
}

/** Accumulated figures for one group of turns. */
export interface CostTotal {
  /** Model requests counted. */
  turns: number;
  usage: Usage;
  /** Pico-dollars. */
  pico: bigint;
  /** True when at least one turn had no known price. */
  unpriced: boolean;
}

function emptyTotal(): CostTotal {
  return { turns: 0, usage: emptyUsage(), pico: 0n, unpriced: false };
}

function accumulate(total: CostTotal, usage: Usage, cost: TurnCost): void {
  total.turns += 1;
  total.usage = addUsage(total.usage, usage);
  total.pico += cost.pico;
  total.unpriced ||= cost.unpriced;
}

function copy(total: CostTotal): CostTotal {
  return { ...total, usage: { ...total.usage } };
}

function addTo(groups: Map<string, CostTotal>, key: string, usage: Usage, cost: TurnCost): void {
  let total = groups.get(key);
  if (total === undefined) {
    total = emptyTotal();
    groups.set(key, total);
  }
  accumulate(total, usage, cost);
}

/** Cost accumulator for one run. */
export class CostLedger {
  private readonly runTotal = emptyTotal();
  private readonly actors = new Map<string, CostTotal>();
  private readonly tasks = new Map<string, CostTotal>();
  private readonly models = new Map<string, CostTotal>();

  /** Records a turn and returns its own cost. */
  record(turn: TurnRecord): TurnCost {
    const cost = usageCost(turn.usage, turn.pricing);
    accumulate(this.runTotal, turn.usage, cost);
    addTo(this.actors, turn.actor, turn.usage, cost);
    if (turn.task !== undefined) addTo(this.tasks, turn.task, turn.usage, cost);
    addTo(this.models, turn.model, turn.usage, cost);
    return cost;
  }

  /** The whole run. */
  run(): CostTotal {
    return copy(this.runTotal);
  }

  actor(actor: string): CostTotal {
    return copy(this.actors.get(actor) ?? emptyTotal());
  }

  task(task: string): CostTotal {
    return copy(this.tasks.get(task) ?? emptyTotal());
  }

  model(model: string): CostTotal {
    return copy(this.models.get(model) ?? emptyTotal());
  }

  /** Per-actor totals in first-seen order. */
  byActor(): Map<string, CostTotal> {
    return new Map([...this.actors].map(([key, total]) => [key, copy(total)]));
  }

  byTask(): Map<string, CostTotal> {
    return new Map([...this.tasks].map(([key, total]) => [key, copy(total)]));
  }

  byModel(): Map<string, CostTotal> {
    return new Map([...this.models].map(([key, total]) => [key, copy(total)]));
  }
}
