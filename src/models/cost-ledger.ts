/**
 * Sums usage and cost per turn, task, model and run — the figures of budgets and the run's
 * totals. Append-only; totals are kept incrementally so reads are O(groups). Nothing is kept
 * per actor, where nothing read it (the Costs tab sums `model.response` events; the journal
 * has every turn's cost by actor) and an iteration's commanders would each hold a tally.
 */
import { usageCost, type TurnCost } from './cost.ts';
import type { Pricing, Usage } from './model-types.ts';
import { emptyUsage } from './usage.ts';

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

/** A running total kept flat and added to in place: no nested usage object, no copy per turn. */
class Tally {
  turns = 0;
  input = 0;
  output = 0;
  cacheRead = 0;
  cacheWrite = 0;
  reasoning = 0;
  pico = 0n;
  unpriced = false;

  add(usage: Usage, cost: TurnCost): void {
    this.turns += 1;
    this.input += usage.input;
    this.output += usage.output;
    this.cacheRead += usage.cacheRead;
    this.cacheWrite += usage.cacheWrite;
    this.reasoning += usage.reasoning;
    this.pico += cost.pico;
    this.unpriced ||= cost.unpriced;
  }

  /** A fresh `CostTotal` of the tally (callers may keep or change it). */
  total(): CostTotal {
    return {
      turns: this.turns,
      usage: {
        input: this.input,
        output: this.output,
        cacheRead: this.cacheRead,
        cacheWrite: this.cacheWrite,
        reasoning: this.reasoning,
      },
      pico: this.pico,
      unpriced: this.unpriced,
    };
  }
}

function addTo(groups: Map<string, Tally>, key: string, usage: Usage, cost: TurnCost): void {
  let tally = groups.get(key);
  if (tally === undefined) {
    tally = new Tally();
    groups.set(key, tally);
  }
  tally.add(usage, cost);
}

function totals(groups: Map<string, Tally>): Map<string, CostTotal> {
  return new Map([...groups].map(([key, tally]) => [key, tally.total()]));
}

/** Cost accumulator for one run. */
export class CostLedger {
  private readonly runTotal = new Tally();
  private readonly tasks = new Map<string, Tally>();
  private readonly models = new Map<string, Tally>();

  /** Records a turn and returns its own cost. */
  record(turn: TurnRecord): TurnCost {
    const cost = usageCost(turn.usage, turn.pricing);
    this.recordCosted(turn, cost);
    return cost;
  }

  /** Records a turn whose cost was computed elsewhere (a worker of a distributed run). */
  recordCosted(turn: Omit<TurnRecord, 'pricing'>, cost: TurnCost): void {
    this.runTotal.add(turn.usage, cost);
    if (turn.task !== undefined) addTo(this.tasks, turn.task, turn.usage, cost);
    addTo(this.models, turn.model, turn.usage, cost);
  }

  /** The whole run. */
  run(): CostTotal {
    return this.runTotal.total();
  }

  task(task: string): CostTotal {
    return this.tasks.get(task)?.total() ?? emptyTotal();
  }

  model(model: string): CostTotal {
    return this.models.get(model)?.total() ?? emptyTotal();
  }

  byTask(): Map<string, CostTotal> {
    return totals(this.tasks);
  }

  byModel(): Map<string, CostTotal> {
    return totals(this.models);
  }
}
