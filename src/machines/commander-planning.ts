/**
 * The plan rules of tools.md ("Planning", "Plan first", plan lock): the guards, the context
 * updates and the results of `set_subtasks`, `get_subtasks` and `complete_subtask`.
 */
import type { CommanderContext } from './commander-context.ts';
import {
  commanderAction,
  commanderAssign,
  headArguments,
  headOf,
  isSequential,
  workingItem,
} from './commander-context.ts';
import { okWith, rejectWith } from './commander-answering.ts';
import { taskCompleteArguments } from './commander-completing.ts';
import {
  completeCurrentSubtask,
  createPlan,
  currentSubtask,
  openSubtaskCount,
  planFirstError,
  planLockedError,
} from './plan.ts';

/** Tools callable before a plan exists (tools.md, "Plan first"). */
function exemptFromPlanFirst(context: CommanderContext): boolean {
  const { call } = headOf(context);
  if (['set_subtasks', 'get_subtasks', 'dataset_next'].includes(call.name)) return true;
  return call.name === 'task_complete' && taskCompleteArguments(context).succeed === false;
}

/** The plan guards, one per rule. */
export const planningGuards = {
  headNeedsPlanFirst: ({ context }: { context: CommanderContext }) =>
    context.plan === null && !exemptFromPlanFirst(context),
  planLocked: ({ context }: { context: CommanderContext }) => context.planLocked,
  cannotCompleteSubtask: ({ context }: { context: CommanderContext }) =>
    !completeCurrentSubtask(context.plan).ok,
};

/** The plan's context updates, each reported as `emitPlanUpdated`. */
export const planningActions = {
  acceptPlan: commanderAction(({ context, enqueue }) => {
    const plan = createPlan(headArguments(context).subtasks as string[]);
    enqueue.assign({ plan });
    enqueue({ type: 'emitPlanUpdated', params: { plan, index: workingItem(context) } });
  }),
  completeSubtask: commanderAction(({ context, enqueue }) => {
    const step = completeCurrentSubtask(context.plan);
    if (!step.ok) return;
    enqueue.assign({ plan: step.plan, planLocked: true });
    enqueue({ type: 'emitPlanUpdated', params: { plan: step.plan, index: workingItem(context) } });
  }),
  unlockPlan: commanderAssign({ planLocked: false }),
};

/** The results of the plan tools, by outcome. */
export const answerPlanning = {
  planFirst: rejectWith((context) => planFirstError(headOf(context).call.name)),
  planLocked: rejectWith((context) => planLockedError(context.plan, isSequential(context))),
  plan: okWith((context) => ({ subtasks: context.plan })),
  subtasks: okWith((context) =>
    context.plan === null
      ? { subtasks: [], note: 'no plan yet: call set_subtasks' }
      : { subtasks: context.plan },
  ),
  subtaskNotCompleted: rejectWith((context) => {
    const step = completeCurrentSubtask(context.plan);
    return step.ok ? '' : step.error;
  }),
  /** Listed after `completeSubtask`: subtasks complete in order, so the one before `next` was it. */
  subtaskCompleted: okWith((context) => {
    const plan = context.plan ?? [];
    const next = currentSubtask(plan);
    const completed = plan[(next?.index ?? plan.length) - 1];
    return {
      completed:
        completed === undefined ? null : { index: completed.index, title: completed.title },
      next: next === undefined ? null : { index: next.index, title: next.title },
      remaining: openSubtaskCount(plan),
    };
  }),
};
