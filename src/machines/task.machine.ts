/**
 * One running task: its work (one commander, or an iteration strategy) as an invoked actor.
 * The mission spawns a task only when it is ready, so `pending` lives in the mission's
 * context and a task machine starts `running`. Cancelling stops the work, which aborts its
 * model requests and tools through the actor's signal.
 */
import { assign, fromPromise, setup, type AnyActorRef } from 'xstate';
import { ActorNotProvidedError } from './effect-params.ts';
import type { TaskOutcome } from './task-outcome.ts';
import { reasonOf } from '../base/reason.ts';

/**
 * Runs one task's work (one commander, or an iteration) under the actor's signal; the actors
 * it starts are children of `parent`, the work actor (one actor system per run).
 */
export type TaskWork = (
  task: string,
  signal: AbortSignal,
  parent: AnyActorRef,
) => Promise<TaskOutcome>;

/** The task to run. */
export interface TaskMachineInput {
  task: string;
  /**
   * The run's work for the task; without it `work` must be provided (machine tests). One
   * machine serves every task: `provide` per run rebuilt its state nodes.
   */
  work?: TaskWork | null;
}

/** What the work actor receives. */
export interface TaskWorkInput {
  task: string;
  work?: TaskWork | null;
}

/** How a task actor ends. */
export type TaskFinalStatus = 'succeeded' | 'failed' | 'cancelled';

/** The task machine's context. */
export interface TaskMachineContext {
  task: string;
  status: TaskFinalStatus | null;
  outcome: TaskOutcome | null;
  error: string | null;
  work: TaskWork | null;
}

/** What the mission receives when a task actor finishes. */
export interface TaskMachineOutput {
  task: string;
  status: TaskFinalStatus;
  outcome: TaskOutcome | null;
  error: string | null;
}

/** Cancels the running task. */
export interface TaskCancelEvent {
  type: 'task.cancel';
  reason: string;
}

/** Every event the task handles. */
export type TaskMachineEvent = TaskCancelEvent;

/** The task machine; provide `work` (one commander or an iteration). */
export const taskMachine = setup({
  types: {
    input: {} as TaskMachineInput,
    context: {} as TaskMachineContext,
    events: {} as TaskMachineEvent,
    output: {} as TaskMachineOutput,
  },
  actors: {
    work: fromPromise<TaskOutcome, TaskWorkInput>(async ({ input, signal, self }) => {
      if (input.work === undefined || input.work === null) throw new ActorNotProvidedError('work');
      return input.work(input.task, signal, self);
    }),
  },
  guards: {
    workSucceeded: (_, outcome: TaskOutcome) => outcome.status === 'succeeded',
  },
  actions: {
    acceptOutcome: assign((_, outcome: TaskOutcome) => ({ outcome, error: outcome.error ?? null })),
    acceptDefect: assign((_, defect: { error: unknown }) => ({ error: reasonOf(defect.error) })),
    acceptCancel: assign((_, cancel: TaskCancelEvent) => ({ error: cancel.reason })),
    markSucceeded: assign({ status: 'succeeded' as const }),
    markFailed: assign({ status: 'failed' as const }),
    markCancelled: assign({ status: 'cancelled' as const }),
  },
}).createMachine({
  id: 'task',
  context: ({ input }) => ({
    task: input.task,
    status: null,
    outcome: null,
    error: null,
    work: input.work ?? null,
  }),
  initial: 'running',
  states: {
    running: {
      description: 'The work runs: one commander, or the items of an iteration.',
      invoke: {
        src: 'work',
        input: ({ context }) => ({ task: context.task, work: context.work }),
        onDone: [
          {
            guard: { type: 'workSucceeded', params: ({ event }) => event.output },
            target: 'succeeded',
            actions: { type: 'acceptOutcome', params: ({ event }) => event.output },
          },
          {
            target: 'failed',
            actions: { type: 'acceptOutcome', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'acceptDefect', params: ({ event }) => ({ error: event.error }) },
        },
      },
      on: {
        'task.cancel': {
          target: 'cancelled',
          actions: { type: 'acceptCancel', params: ({ event }) => event },
        },
      },
    },
    succeeded: {
      description: 'The work finished and task_complete reported success.',
      type: 'final',
      entry: 'markSucceeded',
    },
    failed: {
      description:
        'The commander failed or gave up, an item failed for good, or the work hit a defect.',
      type: 'final',
      entry: 'markFailed',
    },
    cancelled: {
      description: 'Stopped by the mission (fail-fast or run cancellation); its work was aborted.',
      type: 'final',
      entry: 'markCancelled',
    },
  },
  output: ({ context }) => ({
    task: context.task,
    status: context.status ?? 'failed',
    outcome: context.outcome,
    error: context.error,
  }),
});
