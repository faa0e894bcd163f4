/**
 * The budget prompt of a live run: which warned budgets wait for the person (none without a
 * raiser: a replay, an attached run), opening the prompt on its own when a new one warns, and
 * closing it once none waits.
 */
import { useEffect, useMemo, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { BudgetRaising } from '../../runtime/budget-raises.ts';
import type { WarnedBudget } from '../store/index.ts';
import type { ViewState } from '../view/view-state.ts';
import type { BudgetAnswering } from './budget-commands.ts';

/** One warning of one limit: a later warning at a raised limit is another. */
function warningKey(warned: WarnedBudget): string {
  return `${warned.scope}\u0000${warned.subject}\u0000${warned.metric}\u0000${warned.limit}`;
}

/** The prompt's state; undefined `answering` when this run's budgets cannot be raised here. */
export function useBudgetPrompt(
  raising: BudgetRaising | undefined,
  warnedBudgets: readonly WarnedBudget[],
  overlay: ViewState['overlay'],
  setView: Dispatch<SetStateAction<ViewState>>,
): BudgetAnswering | undefined {
  const [skipped, setSkipped] = useState<ReadonlySet<string>>(new Set());
  const waiting = useMemo(
    () =>
      raising === undefined
        ? []
        : warnedBudgets.filter((warned) => !skipped.has(warningKey(warned))),
    [raising, warnedBudgets, skipped],
  );
  const shown = useRef<string | null>(null);
  const first = waiting[0];
  const firstKey = first === undefined ? null : warningKey(first);
  useEffect(() => {
    if (firstKey === null) {
      if (overlay === 'budget') setView((view) => ({ ...view, overlay: 'none', budgetTyped: '' }));
      return;
    }
    // Opens once per warning, and never over another open layer (a question being typed).
    if (firstKey === shown.current || overlay !== 'none') return;
    shown.current = firstKey;
    setView((view) => ({ ...view, overlay: 'budget', budgetTyped: '' }));
  }, [firstKey, overlay, setView]);
  if (raising === undefined) return undefined;
  return {
    waiting,
    raise: (request) => raising.raise(request),
    skip: (warned) => setSkipped((current) => new Set([...current, warningKey(warned)])),
  };
}
