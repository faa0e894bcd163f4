/**
 * The I/O of a machine: model turns, tool calls and step-gate holds. The agent and commander
 * machines start each job from their states' entry actions (`startJob`); its result comes back
 * to the machine as an event (`modelTurn.done`, `toolCall.failed`, …) that the state waiting
 * for it takes. The jobs of one machine share one AbortController, aborted when the machine
 * stops, reaches a final state or fails: every job still running (the other calls of a batch
 * when one failed, the model request of a cancelled commander) is aborted and its result
 * dropped.
 *
 * A job is handed over by a plain action, not sent to a child actor as an event: an event
 * through xstate (`sendTo` resolved, relayed, queued in the child's mailbox, a macrostep of the
 * child, its snapshot and inspection objects) cost more than the job's own start for most jobs,
 * once per model turn and per tool call. It starts in a microtask, after the machine's
 * transition. The jobs watch their machine through a subscription (xstate tells its observers
 * when an actor stops, ends or fails) rather than through an invoked child, which cost every
 * machine an actor of its own to build, start and stop.
 */
import type { AnyActorRef } from 'xstate';
import { besideMachine } from './beside-machine.ts';
import type { ModelTurnOutput, ToolOutcome } from './turn-types.ts';

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

/** The jobs of one machine, until it stops, ends or fails. */
class MachineJobs {
  private readonly controller = new AbortController();
  private running = 0;
  private stopped = false;

  constructor(private readonly machine: AnyActorRef) {
    // xstate calls one of them once: `complete` when the machine stops or reaches a final
    // state, `error` when it fails. Jobs start only from a running machine's actions, so the
    // machine has not ended when this subscribes.
    const stop = (): void => this.stop();
    machine.subscribe({ complete: stop, error: stop });
  }

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
