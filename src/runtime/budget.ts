/**
 * Token and dollar budgets of a mission and its tasks (sortie extension). Usage of iterations
 * and agents counts toward their task and the mission. Money is in pico-dollars (bigint), the
 * unit of src/models/cost.ts.
 */
import { BudgetExceededError } from '../base/errors.ts';
import { dollarsToPico } from '../models/cost.ts';
import type { Usage } from '../models/model-types.ts';
import { totalTokens } from '../models/usage.ts';
import type {
  BudgetAmounts,
  BudgetLimitChange,
  BudgetMetric,
  BudgetScope,
} from '../base/events.ts';
import { formatDollarLimit, formatDollars } from '../present/money.ts';
import { formatCount } from '../present/numbers.ts';

/** A `budget { tokens, dollars }` block; at least one limit, each > 0. */
export interface BudgetLimits {
  tokens?: number;
  dollars?: number;
}

/** What a scope has spent: tokens, and pico-dollars. */
export interface BudgetSpent {
  tokens: number;
  pico: bigint;
}

/** A limit that has been reached; dollar amounts are pico-dollars as decimal strings. */
export type BudgetBreach = { scope: BudgetScope; subject: string; message: string } & BudgetAmounts;

/** What `record` reports, shaped as the event payloads (plus `type`). */
export type BudgetSignal =
  | ({ type: 'budget.warning'; scope: BudgetScope; subject: string } & BudgetAmounts)
  | ({ type: 'budget.exceeded' } & BudgetBreach);

/** A new, higher limit for one metric of a scope: tokens, or pico-dollars. */
export type BudgetRaise = { scope: BudgetScope; subject: string } & (
  { metric: 'tokens'; to: number } | { metric: 'dollars'; to: bigint }
);

/** What `raise` did: the limit before and after, or why it could not. */
export type BudgetRaiseResult =
  { ok: true; change: BudgetLimitChange } | { ok: false; problem: string };

/** The result of the check before a model request. */
export type BudgetCheck = { ok: true } | { ok: false; breach: BudgetBreach };

const METRICS: readonly BudgetMetric[] = ['tokens', 'dollars'];

/** The error that fails a task over a breach. */
export function budgetError(breach: BudgetBreach): BudgetExceededError {
  return new BudgetExceededError(breach.message, breach.scope, breach.subject);
}

interface ScopeState {
  scope: BudgetScope;
  subject: string;
  tokenLimit: number | undefined;
  picoLimit: bigint | undefined;
  tokens: number;
  pico: bigint;
  warned: Set<BudgetMetric>;
  exceeded: boolean;
  /** A breach found elsewhere (the run process of a distributed run) that stops this scope. */
  adopted: BudgetBreach | undefined;
  /** The breach this tracker found when the scope crossed its limit. */
  crossed: BudgetBreach | undefined;
}

/** Tracks spending per task and for the mission, and says when a limit is near or reached. */
export class BudgetTracker {
  private readonly mission: ScopeState;
  private readonly tasks = new Map<string, ScopeState>();
  private readonly taskLimits: ReadonlyMap<string, BudgetLimits>;

  constructor(options: {
    mission: string;
    missionLimits?: BudgetLimits;
    taskLimits?: Record<string, BudgetLimits | undefined>;
  }) {
    this.mission = scopeState('mission', options.mission, options.missionLimits);
    const limits = new Map<string, BudgetLimits>();
    for (const [task, taskLimit] of Object.entries(options.taskLimits ?? {})) {
      if (taskLimit !== undefined) limits.set(task, taskLimit);
    }
    this.taskLimits = limits;
  }

  /** Whether a model request for `task` may be sent: no limit of the task or mission reached. */
  checkBeforeRequest(task: string): BudgetCheck {
    for (const state of [this.taskState(task), this.mission]) {
      if (state.adopted !== undefined) return { ok: false, breach: state.adopted };
      const metric = METRICS.find((candidate) => reached(state, candidate));
      if (metric !== undefined) return { ok: false, breach: breach(state, metric) };
    }
    return { ok: true };
  }

  /** Adds a turn's usage and cost to its task and the mission; returns the signals it triggers. */
  record(task: string, usage: Usage, costPico: bigint): BudgetSignal[] {
    const signals: BudgetSignal[] = [];
    for (const state of [this.taskState(task), this.mission]) {
      state.tokens += totalTokens(usage);
      state.pico += costPico;
      signals.push(...signalsFor(state));
    }
    return signals;
  }

  /**
   * A breach another tracker found (a distributed run's process, counting every worker): from
   * now on no request of its scope is sent here, as if this tracker had seen the spending.
   */
  adopt(breach: BudgetBreach): void {
    const state = breach.scope === 'mission' ? this.mission : this.taskState(breach.subject);
    state.adopted ??= breach;
    state.exceeded = true;
  }

  /**
   * Raises the task's and the mission's counts to at least what another tracker counted (a
   * distributed run's process, counting every worker, when it queued an item), so the turn
   * that crosses a limit here fails as it would locally. Its warnings and breaches are that
   * tracker's: none are signalled again.
   */
  catchUp(task: string, spent: { task: BudgetSpent; mission: BudgetSpent }): void {
    const scopes = [
      [this.taskState(task), spent.task],
      [this.mission, spent.mission],
    ] as const;
    for (const [state, counted] of scopes) {
      state.tokens = Math.max(state.tokens, counted.tokens);
      if (counted.pico > state.pico) state.pico = counted.pico;
      signalsFor(state);
    }
  }

  /**
   * Sets a scope's limit higher for the rest of the run. A limit no longer near warns again
   * at 80% of the new one; a breach this tracker found is lifted when the new limit is above
   * what was used (an adopted one, counted elsewhere, is not).
   */
  raise(raise: BudgetRaise): BudgetRaiseResult {
    const state = raise.scope === 'mission' ? this.mission : this.taskState(raise.subject);
    if (raise.scope === 'mission' && raise.subject !== this.mission.subject) {
      return { ok: false, problem: `mission "${raise.subject}" is not this run's mission` };
    }
    const what = `${raise.scope} "${raise.subject}"`;
    const from = raise.metric === 'tokens' ? state.tokenLimit : state.picoLimit;
    if (from === undefined) return { ok: false, problem: `${what} has no ${raise.metric} limit` };
    if (raise.to <= from) {
      return { ok: false, problem: `the new limit must be above ${limitText(raise.metric, from)}` };
    }
    let change: BudgetLimitChange;
    if (raise.metric === 'tokens') {
      change = { metric: 'tokens', from: Number(from), to: raise.to };
      state.tokenLimit = raise.to;
    } else {
      change = { metric: 'dollars', from: String(from), to: String(raise.to) };
      state.picoLimit = raise.to;
    }
    if (!nearLimit(state, raise.metric)) state.warned.delete(raise.metric);
    if (state.crossed !== undefined && !METRICS.some((metric) => reached(state, metric))) {
      state.crossed = undefined;
      state.exceeded = state.adopted !== undefined;
    }
    return { ok: true, change };
  }

  /** The breaches this tracker found or adopted that stop requests of `task`. */
  breachesOf(task: string): BudgetBreach[] {
    return [this.taskState(task), this.mission].flatMap((state) => {
      const found = state.adopted ?? state.crossed;
      return found === undefined ? [] : [found];
    });
  }

  /** Spending so far: the mission's, or one task's. */
  spent(task?: string): BudgetSpent {
    const state = task === undefined ? this.mission : this.taskState(task);
    return { tokens: state.tokens, pico: state.pico };
  }

  private taskState(task: string): ScopeState {
    let state = this.tasks.get(task);
    if (state === undefined) {
      state = scopeState('task', task, this.taskLimits.get(task));
      this.tasks.set(task, state);
    }
    return state;
  }
}

function scopeState(scope: BudgetScope, subject: string, limits?: BudgetLimits): ScopeState {
  return {
    scope,
    subject,
    tokenLimit: limits?.tokens,
    picoLimit: limits?.dollars === undefined ? undefined : dollarsToPico(limits.dollars),
    tokens: 0,
    pico: 0n,
    warned: new Set(),
    exceeded: false,
    adopted: undefined,
    crossed: undefined,
  };
}

/** Whether a metric's limit is reached (used ≥ limit): nothing more may be sent. */
function reached(state: ScopeState, metric: BudgetMetric): boolean {
  if (metric === 'tokens')
    return state.tokenLimit !== undefined && state.tokens >= state.tokenLimit;
  return state.picoLimit !== undefined && state.pico >= state.picoLimit;
}

/** Whether a metric has used at least 80% of its limit. */
function nearLimit(state: ScopeState, metric: BudgetMetric): boolean {
  if (metric === 'tokens') {
    return state.tokenLimit !== undefined && state.tokens * 5 >= state.tokenLimit * 4;
  }
  return state.picoLimit !== undefined && state.pico * 5n >= state.picoLimit * 4n;
}

/** The first breach of a scope wins; otherwise each metric warns once when it passes 80%. */
function signalsFor(state: ScopeState): BudgetSignal[] {
  if (state.exceeded) return [];
  const breached = METRICS.find((metric) => reached(state, metric));
  if (breached !== undefined) {
    state.exceeded = true;
    state.crossed = breach(state, breached);
    return [{ type: 'budget.exceeded', ...state.crossed }];
  }
  const signals: BudgetSignal[] = [];
  for (const metric of METRICS) {
    if (state.warned.has(metric) || !nearLimit(state, metric)) continue;
    state.warned.add(metric);
    signals.push({
      type: 'budget.warning',
      scope: state.scope,
      subject: state.subject,
      ...amounts(state, metric),
    });
  }
  return signals;
}

function amounts(state: ScopeState, metric: BudgetMetric): BudgetAmounts {
  return metric === 'tokens'
    ? { metric, used: state.tokens, limit: state.tokenLimit ?? 0 }
    : { metric, used: String(state.pico), limit: String(state.picoLimit ?? 0n) };
}

/** A limit as the person reads it: `100,000 tokens`, `$1.00`. */
function limitText(metric: BudgetMetric, limit: number | bigint): string {
  return metric === 'tokens'
    ? `${formatCount(Number(limit))} tokens`
    : formatDollarLimit(BigInt(limit));
}

function breach(state: ScopeState, metric: BudgetMetric): BudgetBreach {
  const figures =
    metric === 'tokens'
      ? `${formatCount(state.tokens)} of ${formatCount(state.tokenLimit ?? 0)} tokens`
      : `${formatDollars(state.pico)} of ${formatDollarLimit(state.picoLimit ?? 0n)}`;
  const message = `budget exceeded: ${state.scope} "${state.subject}" used ${figures}`;
  return { scope: state.scope, subject: state.subject, message, ...amounts(state, metric) };
}
