/**
 * Raising a budget while the run goes on (the TUI's budget prompt): the new limit a choice
 * gives, the run's raiser that sets it on the running mission's tracker and journals it as
 * `budget.raised`, and the hold that stops every actor at its next gate point once a budget
 * warns, so the person can choose before more is spent.
 */
import type {
  BudgetAmounts,
  BudgetLimitChange,
  BudgetRaiseHow,
  BudgetScope,
  EventInput,
  MissionEvent,
} from '../base/events.ts';
import { actorId } from '../base/events.ts';
import { dollarsToPico } from '../models/cost.ts';
import type { BudgetRaise, BudgetTracker } from './budget.ts';

/** A raise the person asked for: the scope, the metric, its new limit, and how it was chosen. */
export type BudgetRaiseRequest = BudgetRaise & { how: BudgetRaiseHow };

/** Where the TUI sends a raise; a problem comes back as text, undefined once it is set. */
export interface BudgetRaising {
  raise(request: BudgetRaiseRequest): string | undefined;
}

/** The new limit of a choice, or why the typed amount is not one. */
export type ChosenLimit =
  { ok: true; request: BudgetRaiseRequest } | { ok: false; problem: string };

const TYPED_DOLLARS = /^\$?\d+(\.\d+)?$/;
const TYPED_TOKENS = /^\d[\d,_]*$/;

/**
 * The raise a choice makes of a warned budget: half as much again, double, or the amount
 * typed (dollars for a dollar limit, `$` optional; a whole number of tokens for a token one).
 */
export function chosenLimit(
  warned: { scope: BudgetScope; subject: string } & BudgetAmounts,
  how: BudgetRaiseHow,
  typed = '',
): ChosenLimit {
  const { scope, subject } = warned;
  const text = typed.trim();
  if (warned.metric === 'tokens') {
    let to = how === 'double' ? warned.limit * 2 : Math.ceil(warned.limit * 1.5);
    if (how === 'typed') {
      if (!TYPED_TOKENS.test(text)) return { ok: false, problem: 'type a whole number of tokens' };
      to = Number(text.replace(/[,_]/g, ''));
    }
    return { ok: true, request: { scope, subject, metric: 'tokens', to, how } };
  }
  const limit = BigInt(warned.limit);
  let to = how === 'double' ? limit * 2n : limit + limit / 2n;
  if (how === 'typed') {
    if (!TYPED_DOLLARS.test(text)) return { ok: false, problem: 'type an amount in dollars' };
    to = dollarsToPico(Number(text.replace('$', '')));
  }
  return { ok: true, request: { scope, subject, metric: 'dollars', to, how } };
}

/**
 * The raise a journaled `budget.raised` made, set again on a resumed run's budgets (a limit
 * the configuration has since raised further stays the configuration's).
 */
export function journaledRaise(
  raised: { scope: BudgetScope; subject: string } & BudgetLimitChange,
): BudgetRaise {
  const { scope, subject } = raised;
  return raised.metric === 'tokens'
    ? { scope, subject, metric: 'tokens', to: raised.to }
    : { scope, subject, metric: 'dollars', to: BigInt(raised.to) };
}

/**
 * The run's raiser: raises go to the tracker of the mission running now (each mission of a
 * chain has its own budgets) and are journaled, so `show`, replay and resume see them.
 */
export class BudgetRaiser implements BudgetRaising {
  private tracker: BudgetTracker | undefined;

  constructor(private readonly emit: (event: EventInput) => void) {}

  /** The budgets of the mission that runs from now on. */
  follow(tracker: BudgetTracker): void {
    this.tracker = tracker;
  }

  /** Sets the new limit and journals it; returns what is wrong with the raise, if anything. */
  raise(request: BudgetRaiseRequest): string | undefined {
    if (this.tracker === undefined) return 'no mission is running';
    const result = this.tracker.raise(request);
    if (!result.ok) return result.problem;
    const { scope, subject, how } = request;
    const actor = scope === 'mission' ? actorId.mission(subject) : actorId.task(subject);
    this.emit({ type: 'budget.raised', actor, scope, subject, how, ...result.change });
    return undefined;
  }
}

/**
 * In an interactive run, a budget's warning pauses the gate: every actor stops at its next
 * model request or tool call (the one that warned first) until the person has chosen.
 */
export function holdOnBudgetWarning(gate: { pause(): void }): (event: MissionEvent) => void {
  return (event) => {
    if (event.type === 'budget.warning') gate.pause();
  };
}
