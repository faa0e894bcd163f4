/**
 * The one actor that does a machine's I/O: model turns, tool calls and step-gate holds. The
 * agent and commander machines invoke it once, at their root, and hand it jobs from their
 * states' entry actions; each job's result comes back as an event (`modelTurn.done`,
 * `toolCall.failed`, …) that the state waiting for it takes. Before, every model turn and tool
 * call was an invoked actor of its own, with its own AbortController: the largest part of the
 * machines' cost per turn. Cancellation is the worker's: when the machine stops or reaches a
 * final state, xstate stops the worker, which aborts every job still running (the other calls
 * of a batch when one failed, the model request of a cancelled commander).
 */
import { fromCallback } from 'xstate';
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

/** A job for the worker: `start` runs under the worker's signal; `id` comes back with the result. */
export interface WorkerJob {
  type: 'work';
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

/** Every event the worker sends back to its machine. */
export type WorkerReply = JobDone | JobFailed;

/**
 * The worker's logic. A job's result after the worker stopped is dropped (xstate drops what a
 * stopped actor sends); a job that throws synchronously is reported like a rejection. Stopping
 * aborts the signal only while a job runs: aborting builds a `DOMException` with its stack
 * trace (tens of µs), and a machine that reached its final state has nothing left to cancel.
 */
export const turnWorker = fromCallback<WorkerJob>(({ receive, sendBack }) => {
  const controller = new AbortController();
  let running = 0;
  const settled = (): void => {
    running -= 1;
  };
  receive((job) => {
    let started: Promise<unknown>;
    try {
      started = job.start(controller.signal);
    } catch (error) {
      started = Promise.reject(error);
    }
    running += 1;
    started.then(
      (output) => {
        settled();
        sendBack({ type: `${job.kind}.done`, id: job.id, output } as WorkerReply);
      },
      (error: unknown) => {
        settled();
        sendBack({ type: `${job.kind}.failed`, id: job.id, error } as WorkerReply);
      },
    );
  });
  return () => {
    if (running > 0) controller.abort();
  };
});
