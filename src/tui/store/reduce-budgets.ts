/**
 * Budgets the person may raise: a `budget.warning` opens one until a `budget.raised` of the
 * same limit, a breach of its scope (too late: the work it stopped has failed) or the run's end.
 */
import type { MissionEvent } from '../../base/events.ts';
import type { StateDraft } from './draft.ts';
import type { WarnedBudget } from './state.ts';

/** Whether two budget events name the same scope (and, given, the same metric). */
function sameScope(
  warned: WarnedBudget,
  event: { scope: string; subject: string; metric?: string },
): boolean {
  return (
    warned.scope === event.scope &&
    warned.subject === event.subject &&
    (event.metric === undefined || warned.metric === event.metric)
  );
}

/** Applies a budget event or the run's end; any other event changes nothing. */
export function reduceWarnedBudgets(draft: StateDraft, event: MissionEvent): void {
  const warned = draft.state.warnedBudgets;
  switch (event.type) {
    case 'budget.warning': {
      const { actor, scope, subject } = event;
      const budget: WarnedBudget =
        event.metric === 'tokens'
          ? { actor, scope, subject, metric: 'tokens', used: event.used, limit: event.limit }
          : { actor, scope, subject, metric: 'dollars', used: event.used, limit: event.limit };
      draft.set('warnedBudgets', [...warned.filter((open) => !sameScope(open, event)), budget]);
      return;
    }
    case 'budget.raised': {
      const open = warned.filter((budget) => !sameScope(budget, event));
      if (open.length < warned.length) draft.set('warnedBudgets', open);
      return;
    }
    case 'budget.exceeded': {
      const scope = { scope: event.scope, subject: event.subject };
      const open = warned.filter((budget) => !sameScope(budget, scope));
      if (open.length < warned.length) draft.set('warnedBudgets', open);
      return;
    }
    case 'run.finished':
      if (warned.length > 0) draft.set('warnedBudgets', []);
      return;
    default:
      return;
  }
}
