/**
 * The budget prompt's keys: a budget at its warning holds the run until the person raises its
 * limit (+50%, ×2 or an amount typed) or goes on without; the run goes on once no warned
 * budget waits. Raising goes through the run's raiser, which journals it.
 */
import type { Dispatch, SetStateAction } from 'react';
import type { BudgetRaiseHow } from '../../base/events.ts';
import { chosenLimit, type BudgetRaiseRequest } from '../../runtime/budget-raises.ts';
import type { GateControls } from '../../runtime/gate.ts';
import type { Command } from '../keys.ts';
import type { WarnedBudget } from '../store/index.ts';
import type { ViewState } from '../view/view-state.ts';

/** What the budget prompt acts on. */
export interface BudgetAnswering {
  /** Warned budgets the person has not chosen for yet, oldest first. */
  waiting: readonly WarnedBudget[];
  /** Sets a new limit; returns what is wrong with it, or undefined once it is set. */
  raise(request: BudgetRaiseRequest): string | undefined;
  /** The person goes on without raising this one: it is not offered again. */
  skip(warned: WarnedBudget): void;
}

/** What a budget command needs of the app. */
export interface BudgetTargets {
  budget?: BudgetAnswering;
  gate: GateControls | undefined;
  typed: string;
  setView: Dispatch<SetStateAction<ViewState>>;
  setNotice: (notice: string) => void;
  refreshGate: () => void;
}

const HOW: Partial<Record<Command, BudgetRaiseHow>> = {
  budgetHalf: 'half',
  budgetDouble: 'double',
  budgetSubmit: 'typed',
};

/** The commands of the budget prompt; false when `command` is not one. */
export function budgetCommand(command: Command, targets: BudgetTargets): boolean {
  switch (command) {
    case 'budgetOpen':
      openPrompt(targets);
      return true;
    case 'budgetErase':
      targets.setView((view) => ({ ...view, budgetTyped: view.budgetTyped.slice(0, -1) }));
      return true;
    case 'budgetClose':
      targets.setView((view) => ({ ...view, overlay: 'none' }));
      return true;
    case 'budgetSkip':
    case 'budgetHalf':
    case 'budgetDouble':
    case 'budgetSubmit':
      choose(command, targets);
      return true;
    default:
      return false;
  }
}

function openPrompt(targets: BudgetTargets): void {
  if (targets.budget === undefined || targets.budget.waiting.length === 0) {
    targets.setNotice('no budget is at its warning');
    return;
  }
  targets.setView((view) => ({ ...view, overlay: 'budget', budgetTyped: '' }));
}

/** Raises (or not) the oldest warned budget; the run goes on once none waits. */
function choose(command: Command, targets: BudgetTargets): void {
  const { budget } = targets;
  const warned = budget?.waiting[0];
  if (budget === undefined || warned === undefined) {
    targets.setView((view) => ({ ...view, overlay: 'none' }));
    return;
  }
  const how = HOW[command];
  let notice = `${warned.scope} ${warned.subject}: going on without raising`;
  if (how === undefined) {
    budget.skip(warned);
  } else {
    const chosen = chosenLimit(warned, how, targets.typed);
    const problem = chosen.ok ? budget.raise(chosen.request) : chosen.problem;
    if (problem !== undefined) {
      targets.setNotice(problem);
      return;
    }
    notice = `${warned.scope} ${warned.subject}: limit raised`;
  }
  const others = budget.waiting.length > 1;
  targets.setView((view) => ({ ...view, overlay: others ? 'budget' : 'none', budgetTyped: '' }));
  if (!others && targets.gate?.isPaused === true) {
    targets.gate.continue();
    targets.refreshGate();
    notice += '; continuing';
  }
  targets.setNotice(notice);
}
