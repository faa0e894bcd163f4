/**
 * A mission (runtime.md "Mission scheduling"): its states show where scheduling stands —
 * starting ready tasks, waiting for running ones, draining after a failure, cancelling — and
 * its guards are the rules: fail-fast unless keep-going, success when every activated task
 * succeeded. Each task is a spawned task machine. The decisions (which task starts, which is
 * skipped, what a route activates) are the pure functions of mission-scheduling.ts; effects
 * are named actions the wiring provides (events).
 */
import { enqueueActions, not, setup } from 'xstate';
import type { DoneActorEvent, ErrorActorEvent } from 'xstate';
import type {
  MissionChain,
  MissionContext,
  MissionEnvironment,
  MissionTaskSpec,
  RouteChosenParams,
  SchedulingStep,
  TaskSkippedParams,
  TaskStartedParams,
} from './mission-scheduling.ts';
import {
  cancelRunningTasks,
  missionContext,
  nothingRunning,
  settle,
  skipPendingTasks,
  someTaskFailed,
  startReadyTasks,
} from './mission-scheduling.ts';
import { taskMachine, type TaskMachineOutput } from './task.machine.ts';
import { reasonOf } from '../base/reason.ts';

/** The mission's tasks and run options. */
export interface MissionMachineInput {
  mission: string;
  tasks: MissionTaskSpec[];
  keepGoing?: boolean;
  /** Follow mission routes (default true). */
  chain?: boolean;
  /** Each task's work and the effects; without it they must be provided (machine tests). */
  environment?: MissionEnvironment;
}

/** Cancels the mission: running tasks are cancelled, pending ones skipped. */
export interface MissionCancelEvent {
  type: 'mission.cancel';
  reason: string;
}

/** A task child settling: its output, or a defect. */
export type TaskSettledEvent =
  DoneActorEvent<TaskMachineOutput, `task:${string}`> | ErrorActorEvent<unknown, `task:${string}`>;

/** Every event the mission handles. */
export type MissionMachineEvent = MissionCancelEvent | TaskSettledEvent;

/** How the mission ended, with every task state and the chained mission. */
export interface MissionMachineOutput {
  status: 'succeeded' | 'failed' | 'cancelled';
  failedTask: string | null;
  error: string | null;
  chainTo: MissionChain | null;
  statuses: MissionContext['statuses'];
}

const TASK_CHILD_PREFIX = 'task:';

/** The child id of a task actor. */
export function taskChildId(task: string): string {
  return `${TASK_CHILD_PREFIX}${task}`;
}

/** The output of a finished task child; a defect (error event) reads as a failure. */
function childOutput(event: TaskSettledEvent): TaskMachineOutput {
  if ('output' in event) return event.output;
  const task = event.actorId.slice(TASK_CHILD_PREFIX.length);
  return { task, status: 'failed', outcome: null, error: reasonOf(event.error) };
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
    nothingRunning: ({ context }) => nothingRunning(context),
    /** "The first failed task fails the mission" — unless `--keep-going`. */
    failureStopsTheMission: ({ context }, output: TaskMachineOutput) =>
      output.status === 'failed' && !context.keepGoing,
    /** "With --keep-going ... the mission then fails at the end." */
    someTaskFailed: ({ context }) => someTaskFailed(context),
  },
  actions: {
    // The environment implements the effects; without one (a machine test) they do nothing.
    emitTaskStarted: ({ context }, params: TaskStartedParams) =>
      context.environment?.effects.emitTaskStarted(undefined, params),
    emitTaskSettled: ({ context }, params: TaskMachineOutput) =>
      context.environment?.effects.emitTaskSettled(undefined, params),
    emitTaskSkipped: ({ context }, params: TaskSkippedParams) =>
      context.environment?.effects.emitTaskSkipped(undefined, params),
    emitRouteChosen: ({ context }, params: RouteChosenParams) =>
      context.environment?.effects.emitRouteChosen(undefined, params),
  },
});

/** A mission action applying the scheduling step `decide` makes: context, effects, spawns, cancels. */
function stepAction(
  decide: (context: MissionContext, event: MissionMachineEvent) => SchedulingStep,
) {
  return missionSetup.createAction(
    enqueueActions(({ context, event, enqueue }) => {
      const step = decide(context, event);
      if (Object.keys(step.changes).length > 0) enqueue.assign(step.changes);
      for (const effect of step.effects) enqueue(effect);
      for (const task of step.spawn) {
        enqueue.spawnChild('task', {
          id: taskChildId(task),
          input: { task, work: context.environment?.work ?? null },
        });
      }
      const reason = step.cancelReason ?? 'cancelled';
      for (const task of step.cancel) {
        enqueue.sendTo(taskChildId(task), { type: 'task.cancel', reason });
      }
    }),
  );
}

const NO_STEP: SchedulingStep = { changes: {}, effects: [], spawn: [], cancel: [] };

/** The mission machine; provide `task` (its `work`) and the `emit*` effects. */
export const missionMachine = missionSetup
  .extend({
    actions: {
      startReadyTasks: stepAction(startReadyTasks),
      skipPendingTasks: stepAction(skipPendingTasks),
      settleTask: stepAction((context, event) =>
        event.type === 'mission.cancel' ? NO_STEP : settle(context, childOutput(event)),
      ),
      /** Fail-fast: the running tasks are cancelled because of the task that failed. */
      cancelForFailure: stepAction((context, event) =>
        event.type === 'mission.cancel'
          ? NO_STEP
          : cancelRunningTasks(context, `task "${childOutput(event).task}" failed`),
      ),
      cancelForUser: stepAction((context, event) =>
        event.type === 'mission.cancel'
          ? {
              ...cancelRunningTasks(context, event.reason),
              changes: { cancelReason: event.reason },
            }
          : NO_STEP,
      ),
    },
  })
  .createMachine({
    id: 'mission',
    context: ({ input }) => missionContext(input),
    initial: 'scheduling',
    states: {
      scheduling: {
        description:
          'Starts every ready task and skips those that can never start; the mission ends when nothing runs.',
        entry: 'startReadyTasks',
        always: [
          { guard: not('nothingRunning'), target: 'running' },
          { guard: 'someTaskFailed', target: 'failed' },
          { target: 'succeeded' },
        ],
      },
      running: {
        description:
          'Tasks run; each one that settles may activate routes and makes room for more.',
        on: {
          'xstate.done.actor.*': [
            {
              guard: { type: 'failureStopsTheMission', params: ({ event }) => event.output },
              target: 'draining',
              actions: ['settleTask', 'cancelForFailure'],
            },
            { target: 'scheduling', actions: 'settleTask' },
          ],
          // A defect in a task's machine fails that task, like a reported failure.
          'xstate.error.actor.*': [
            {
              guard: {
                type: 'failureStopsTheMission',
                params: ({ event }) => childOutput(event),
              },
              target: 'draining',
              actions: ['settleTask', 'cancelForFailure'],
            },
            { target: 'scheduling', actions: 'settleTask' },
          ],
          'mission.cancel': { target: 'cancelling', actions: 'cancelForUser' },
        },
      },
      draining: {
        description:
          'A task failed without --keep-going: running tasks were cancelled and are finishing; nothing starts, pending tasks are skipped.',
        entry: 'skipPendingTasks',
        on: {
          'xstate.done.actor.*': { actions: ['settleTask', 'skipPendingTasks'] },
          'xstate.error.actor.*': { actions: ['settleTask', 'skipPendingTasks'] },
          'mission.cancel': { target: 'cancelling', actions: 'cancelForUser' },
        },
        always: { guard: 'nothingRunning', target: 'failed' },
      },
      cancelling: {
        description:
          'The run was cancelled: running tasks were cancelled and are finishing; pending tasks are skipped.',
        entry: 'skipPendingTasks',
        on: {
          'xstate.done.actor.*': { actions: ['settleTask', 'skipPendingTasks'] },
          'xstate.error.actor.*': { actions: ['settleTask', 'skipPendingTasks'] },
        },
        always: { guard: 'nothingRunning', target: 'cancelled' },
      },
      succeeded: { description: 'Every activated task succeeded.', type: 'final' },
      failed: {
        description:
          'A task failed; the others were cancelled or skipped (or ran, with keep-going).',
        type: 'final',
      },
      cancelled: {
        description: 'The run was cancelled; running tasks were aborted.',
        type: 'final',
      },
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
