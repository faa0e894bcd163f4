/**
 * A keyed mutex: jobs with the same key run one at a time in arrival order; different keys
 * run independently. Questions to one commander fork go through it so each answer builds on
 * the ones before.
 */
import { abortError } from '../base/abort.ts';

interface Job {
  run: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** Runs jobs one at a time per key, in arrival order. */
export class SerialQueue {
  private readonly queues = new Map<string, Job[]>();
  private readonly busy = new Set<string>();

  /**
   * Runs `job` once every earlier job of `key` has settled. A job still waiting when its
   * signal aborts is dropped and rejects with an AbortError; a running one is the job's to stop.
   */
  run<T>(key: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) return Promise.reject(abortError('the queued job was aborted'));
    return new Promise<T>((resolve, reject) => {
      const entry: Job = {
        run: job,
        resolve: resolve as (value: unknown) => void,
        reject,
        signal,
        onAbort: () => {
          const queue = this.queues.get(key);
          const position = queue?.indexOf(entry) ?? -1;
          if (queue === undefined || position < 0) return;
          queue.splice(position, 1);
          if (queue.length === 0) this.queues.delete(key);
          reject(abortError('the queued job was aborted'));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      const queue = this.queues.get(key) ?? [];
      queue.push(entry);
      this.queues.set(key, queue);
      this.next(key);
    });
  }

  /** Jobs of `key` waiting to start (the running one excluded). */
  waiting(key: string): number {
    return this.queues.get(key)?.length ?? 0;
  }

  /** Whether a job of `key` is running. */
  isBusy(key: string): boolean {
    return this.busy.has(key);
  }

  private next(key: string): void {
    if (this.busy.has(key)) return;
    const queue = this.queues.get(key);
    const entry = queue?.shift();
    if (queue !== undefined && queue.length === 0) this.queues.delete(key);
    if (entry === undefined) return;
    entry.signal?.removeEventListener('abort', entry.onAbort);
    this.busy.add(key);
    const settle = (): void => {
      this.busy.delete(key);
      this.next(key);
    };
    // A job that throws synchronously is treated like one that rejects.
    void Promise.resolve()
      .then(entry.run)
      .then(
        (value) => {
          settle();
          entry.resolve(value);
        },
        (error: unknown) => {
          settle();
          entry.reject(error);
        },
      );
  }
}
