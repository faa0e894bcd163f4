/**
 * A mission: schedules its tasks (each a spawned task machine), routes, fail-fast or keep-going,
 * and cancellation. Decisions are the pure functions of mission-scheduling.ts; effects are
 * named actions the wiring provides (events). The mission ends when no task is running.
 */
import { enqueueActions, setup } from 'xstate';
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import type {
  MissionChain,
  MissionContext,
  MissionTaskSpec,
  RouteChosenParams,
  SchedulingStep,
  TaskSkippedParams,
  TaskStartedParams,
} from './mission-scheduling.ts';
import {
  advance,
  cancelAll,
  missionContext,
  nothingRunning,
  settle,
  someTaskFailed,
} from './mission-scheduling.ts';
import { noEffect } from './effect-params.ts';
import { taskMachine, type TaskMachineOutput } from './task.machine.ts';
import { reasonOf } from './turn-types.ts';

/** The mission's tasks and run options. */
export interface MissionMachineInput {
  mission: string;
  tasks: MissionTaskSpec[];
  keepGoing?: boolean;
  /** Follow mission routes (default true). */
  chain?: boolean;
}

/** Cancels the mission: running tasks are cancelled, pending ones skipped. */
export interface MissionCancelEvent {
  type: 'mission.cancel';
  reason: string;
}

/** Every event the mission handles. */
export type MissionMachineEvent = MissionCancelEvent | DoneActorEvent<unknown> | ErrorActorEvent;

/** How the mission ended, with every task state and the chained mission. */
export interface MissionMachineOutput {
  status: 'succeeded' | 'failed' | 'cancelled';
  failedTask: string | null;
  error: string | null;
  chainTo: MissionChain | null;
  statuses: MissionContext['statuses'];
}

/** The child id of a task actor. */
export function taskChildId(task: string): string {
  return `task:${task}`;
}

const TASK_CHILD_PREFIX = 'task:';

/** The output of a finished task child; a defect (error event) reads as a failure. */
function childOutput(event: DoneActorEvent<unknown> | ErrorActorEvent): TaskMachineOutput {
  const task = event.actorId?.slice(TASK_CHILD_PREFIX.length) ?? '';
  if (event.type.startsWith('xstate.error.actor.')) {
    const error = reasonOf((event as ErrorActorEvent).error);
    return { task, status: 'failed', outcome: null, error };
  }
  return (event as DoneActorEvent<TaskMachineOutput>).output;
}

const missionSetup = setup({
  types: {
    input: {} as MissionMachineInput,
    context: {} as MissionContext,
    events: {} as MissionMachineEvent,
    output: {} as MissionMachineOutput,
  },
  actors: { task: taskMachine },
  guards: {
    finishedCancelled: ({ context }) => nothingRunning(context) && context.cancelReason !== null,
    finishedFailed: ({ context }) => nothingRunning(context) && someTaskFailed(context),
    finishedSucceeded: ({ context }) => nothingRunning(context),
  },
  actions: {
    emitTaskStarted: (_, _params: TaskStartedParams) => noEffect(),
    emitTaskSettled: (_, _params: TaskMachineOutput) => noEffect(),
    emitTaskSkipped: (_, _params: TaskSkippedParams) => noEffect(),
    emitRouteChosen: (_, _params: RouteChosenParams) => noEffect(),
  },
});

/** The scheduling steps an event causes, in order; entry (any other event) just advances. */
function stepsFor(context: MissionContext, event: MissionMachineEvent): SchedulingStep[] {
  let first: SchedulingStep;
  if (event.type === 'mission.cancel') first = cancelAll(context, event.reason);
  else if (
    event.type.startsWith('xstate.done.actor.') ||
    event.type.startsWith('xstate.error.actor.')
  )
    first = settle(context, childOutput(event as DoneActorEvent<unknown> | ErrorActorEvent));
  else return [advance(context)];
  return [first, advance({ ...context, ...first.changes })];
}

/** Applies the steps of the current event: context, effects in order, spawns, cancellations. */
const schedule = missionSetup.createAction(
  enqueueActions(({ context, event, enqueue }) => {
    for (const step of stepsFor(context, event)) {
      enqueue.assign(step.changes);
      for (const effect of step.effects) enqueue(effect);
      for (const task of step.spawn) {
        enqueue.spawnChild('task', { id: taskChildId(task), input: { task } });
      }
      for (const task of step.cancel) {
        enqueue.sendTo(taskChildId(task), {
          type: 'task.cancel',
          reason: step.cancelReason ?? 'cancelled',
        });
      }
    }
  }),
);

/** The mission machine; provide `task` (its `work`) and the `emit*` effects. */
export const missionMachine = missionSetup.extend({ actions: { schedule } }).createMachine({
  id: 'mission',
  context: ({ input }) => missionContext(input),
  initial: 'running',
  states: {
    running: {
      description: 'Tasks start when ready and settle; routes activate dynamic tasks.',
      entry: 'schedule',
      on: {
        'xstate.done.actor.*': { actions: 'schedule' },
        'xstate.error.actor.*': { actions: 'schedule' },
        'mission.cancel': { actions: 'schedule' },
      },
      always: [
        { guard: 'finishedCancelled', target: 'cancelled' },
        { guard: 'finishedFailed', target: 'failed' },
        { guard: 'finishedSucceeded', target: 'succeeded' },
      ],
    },
    succeeded: { description: 'Every activated task succeeded.', type: 'final' },
    failed: {
      description: 'A task failed; the others were cancelled or skipped (or ran, with keep-going).',
      type: 'final',
    },
    cancelled: { description: 'The run was cancelled; running tasks were aborted.', type: 'final' },
  },
  output: ({ context }) => ({
    status:
      context.cancelReason !== null
        ? 'cancelled'
        : someTaskFailed(context)
          ? 'failed'
          : 'succeeded',
    failedTask: context.failedTask,
    error: context.error,
    chainTo: context.chainTo,
    statuses: context.statuses,
  }),
});
