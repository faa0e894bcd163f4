import { describe, expect, it } from 'vitest';
import {
  completeCurrentSubtask,
  createPlan,
  openSubtaskCount,
  planFirstError,
  planLockedError,
  remainingSubtasksError,
  subtasksOpenError,
} from '../../src/machines/plan.ts';

describe('plan', () => {
  it('creates records with the first in_progress', () => {
    expect(createPlan(['A', 'B'])).toEqual([
      { index: 0, title: 'A', status: 'in_progress' },
      { index: 1, title: 'B', status: 'pending' },
    ]);
  });

  it('completes the first non-completed subtask and moves in_progress on', () => {
    const step = completeCurrentSubtask(createPlan(['A', 'B', 'C']));
    expect(step).toEqual({
      ok: true,
      plan: [
        { index: 0, title: 'A', status: 'completed' },
        { index: 1, title: 'B', status: 'in_progress' },
        { index: 2, title: 'C', status: 'pending' },
      ],
      completed: { index: 0, title: 'A' },
      next: { index: 1, title: 'B' },
      remaining: 2,
    });
  });

  it('refuses to complete without a plan or when everything is done', () => {
    expect(completeCurrentSubtask(null)).toEqual({
      ok: false,
      error: 'no plan: call set_subtasks first',
    });
    const done = completeCurrentSubtask(createPlan(['A']));
    expect(done.ok && completeCurrentSubtask(done.plan)).toEqual({
      ok: false,
      error: 'all subtasks are already completed',
    });
  });

  it('counts open subtasks', () => {
    expect(openSubtaskCount(null)).toBe(0);
    expect(openSubtaskCount(createPlan(['A', 'B']))).toBe(2);
  });

  it('words the errors exactly', () => {
    const step = completeCurrentSubtask(createPlan(['Fetch data', 'Write']));
    const plan = step.ok ? step.plan : null;
    expect(planFirstError('call_agent')).toBe(
      'plan first: call set_subtasks with 1-10 subtasks before call_agent',
    );
    expect(planLockedError(plan, false)).toBe(
      'plan is locked: subtask 0 "Fetch data" is already completed; finish it with complete_subtask',
    );
    expect(planLockedError(plan, true)).toBe(
      'plan is locked: subtask 0 "Fetch data" is already completed; finish it with complete_subtask; or call dataset_next to move to the next item and plan again',
    );
    expect(subtasksOpenError(plan)).toBe(
      '1 of 2 subtasks are not completed; call complete_subtask for each before task_complete',
    );
    expect(remainingSubtasksError(2, 4)).toBe('complete the remaining subtasks first: 2 of 4 open');
  });
});
