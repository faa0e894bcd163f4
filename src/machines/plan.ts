/**
 * Pure plan logic of a commander (tools.md, "Planning"): the records, their statuses, the
 * lock rule and the exact texts models read. The commander machine's guards and actions
 * call these; nothing here knows about XState.
 */

export type SubtaskStatus = 'pending' | 'in_progress' | 'completed';

/** One subtask of a commander's plan. */
export interface Subtask {
  index: number;
  title: string;
  status: SubtaskStatus;
}

/** A plan: null until `set_subtasks` is accepted. */
export type Plan = readonly Subtask[] | null;

/** Subtask records for `titles`, the first `in_progress` and the rest `pending`. */
export function createPlan(titles: readonly string[]): Subtask[] {
  return withCurrent(titles.map((title, index) => ({ index, title, status: 'pending' })));
}

/** Recomputes statuses so the first non-completed subtask is `in_progress`. */
function withCurrent(subtasks: readonly Subtask[]): Subtask[] {
  const current = subtasks.findIndex((subtask) => subtask.status !== 'completed');
  return subtasks.map((subtask, index) => {
    if (subtask.status === 'completed') return subtask;
    return { ...subtask, status: index === current ? 'in_progress' : 'pending' };
  });
}

/** How many subtasks are not completed (0 without a plan). */
export function openSubtaskCount(plan: Plan): number {
  return plan === null ? 0 : plan.filter((subtask) => subtask.status !== 'completed').length;
}

/** The first subtask not yet completed, or undefined. */
export function currentSubtask(plan: Plan): Subtask | undefined {
  return plan?.find((subtask) => subtask.status !== 'completed');
}

/** `complete_subtask`'s outcome: the new plan and the reply fields, or the error text. */
export type CompletionStep =
  | {
      ok: true;
      plan: Subtask[];
      completed: { index: number; title: string };
      next: { index: number; title: string } | null;
      remaining: number;
    }
  | { ok: false; error: string };

/** Completes the first non-completed subtask. */
export function completeCurrentSubtask(plan: Plan): CompletionStep {
  if (plan === null) return { ok: false, error: 'no plan: call set_subtasks first' };
  const current = currentSubtask(plan);
  if (current === undefined) return { ok: false, error: 'all subtasks are already completed' };
  const updated = withCurrent(
    plan.map((subtask) =>
      subtask.index === current.index ? { ...subtask, status: 'completed' } : subtask,
    ),
  );
  const next = currentSubtask(updated);
  return {
    ok: true,
    plan: updated,
    completed: { index: current.index, title: current.title },
    next: next === undefined ? null : { index: next.index, title: next.title },
    remaining: openSubtaskCount(updated),
  };
}

/** The error for a commander tool called before any plan exists. */
export function planFirstError(tool: string): string {
  return `plan first: call set_subtasks with 1-10 subtasks before ${tool}`;
}

/**
 * The error for `set_subtasks` on a locked plan, naming the first completed subtask. On a
 * sequential dataset task the way out through `dataset_next` is added.
 */
export function planLockedError(plan: Plan, sequential: boolean): string {
  const completed = plan?.find((subtask) => subtask.status === 'completed');
  const named =
    completed === undefined
      ? 'a subtask'
      : `subtask ${completed.index} ${JSON.stringify(completed.title)}`;
  const base = `plan is locked: ${named} is already completed; finish it with complete_subtask`;
  return sequential
    ? `${base}; or call dataset_next to move to the next item and plan again`
    : base;
}

/** The `task_complete` error while subtasks are open. */
export function subtasksOpenError(plan: Plan): string {
  const total = plan?.length ?? 0;
  return `${openSubtaskCount(plan)} of ${total} subtasks are not completed; call complete_subtask for each before task_complete`;
}

/** The `dataset_next` error while subtasks are open. */
export function remainingSubtasksError(open: number, total: number): string {
  return `complete the remaining subtasks first: ${open} of ${total} open`;
}
