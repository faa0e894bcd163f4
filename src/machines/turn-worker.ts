/**
 * The I/O of a machine: model turns, tool calls and step-gate holds. The agent and commander
 * machines start each job from their states' entry actions (`startJob`); its result comes back
 * to the machine as an event (`modelTurn.done`, `toolCall.failed`, …) that the state waiting
 * for it takes. The jobs of one machine share one AbortController, which the machine's one
 * invoked `worker` child aborts when it stops: when the machine stops or reaches a final state,
 * xstate stops the worker, which aborts every job still running (the other calls of a batch
 * when one failed, the model request of a cancelled commander) and drops their results.
 *
 * A job is handed over by a plain action, not sent to the worker as an event: an event through
 * xstate (`sendTo` resolved, relayed, queued in the child's mailbox, a macrostep of the child,
 * its snapshot and inspection objects) cost more than the job's own start for most jobs, once
 * per model turn and per tool call. It starts in a microtask, after the machine's transition.
 */
import { fromCallback, type AnyActorRef } from 'xstate';
import { besideMachine } from './beside-machine.ts';
import type { ModelTurnOutput, ToolOutcome } from './turn-types.ts';

/** The worker's id among the machine's children. */
export const WORKER_ID = 'worker';

/** What a job's result is, by the kind of job. */
interface JobOutputs {
  modelTurn: ModelTurnOutput;
  toolCall: ToolOutcome;
  gate: void;
}

export type JobKind = keyof JobOutputs;

/** A job: `start` runs under the machine's jobs' signal; `id` comes back with the result. */
export interface WorkerJob {
  kind: JobKind;
  id: string;
  start: (signal: AbortSignal) => Promise<unknown>;
}

/** A job finished: `<kind>.done` with its output. */
export type JobDone<Kind extends JobKind = JobKind> = Kind extends JobKind
  ? { type: `${Kind}.done`; id: string; output: JobOutputs[Kind] }
  : never;

/** A job rejected: `<kind>.failed` with its error. */
export type JobFailed<Kind extends JobKind = JobKind> = Kind extends JobKind
  ? { type: `${Kind}.failed`; id: string; error: unknown }
  : never;

/** Every event a job sends back to its machine. */
export type WorkerReply = JobDone | JobFailed;

/** The jobs of one machine, until its worker stops. */
class MachineJobs {
  private readonly controller = new AbortController();
  private running = 0;
  private stopped = false;

  constructor(private readonly machine: AnyActorRef) {}

  start(job: WorkerJob): void {
    if (this.stopped) return;
    this.running += 1;
    // The job runs once the machine's transition is over: its synchronous part may reach other
    // actors (a step gate that cancels the run, events to subscribers), which must not happen
    // while this machine is between two snapshots (xstate's development build warns of it).
    queueMicrotask(() => this.run(job));
  }

  private run(job: WorkerJob): void {
    if (this.stopped) {
      this.running -= 1;
      return;
    }
    let started: Promise<unknown>;
    try {
      started = job.start(this.controller.signal);
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (output) => this.settle({ type: `${job.kind}.done`, id: job.id, output } as WorkerReply),
      (error: unknown) =>
        this.settle({ type: `${job.kind}.failed`, id: job.id, error } as WorkerReply),
    );
  }

  /**
   * Aborts the jobs still running (aborting builds a `DOMException` with its stack trace,
   * tens of µs: a machine that reached its final state has nothing left to cancel).
   */
  stop(): void {
    this.stopped = true;
    if (this.running > 0) this.controller.abort();
  }

  private settle(reply: WorkerReply): void {
    this.running -= 1;
    // A result after the machine stopped is dropped.
    if (!this.stopped) this.machine.send(reply);
  }
}

const jobsOf = besideMachine((machine) => new MachineJobs(machine));

/** Starts `job` for `machine` (an action's `self`); a job that throws at once is a rejection. */
export function startJob(machine: AnyActorRef, job: WorkerJob): void {
  jobsOf(machine).start(job);
}

/**
 * The worker child: it lives as long as its machine, and its stop aborts the machine's jobs.
 * Invoke it with `input: ({ self }) => ({ machine: self })`.
 */
export const turnWorker = fromCallback<{ type: never }, { machine: AnyActorRef }>(({ input }) => {
  return () => jobsOf(input.machine).stop();
});

/** The invoke of the worker child, at a machine's root. */
export const workerInvoke = {
  id: WORKER_ID,
  src: 'turnWorker',
  input: ({ self }: { self: AnyActorRef }) => ({ machine: self }),
} as const;
