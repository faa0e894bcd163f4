/**
 * `sortie worker`'s BullMQ side: takes item jobs from the queue, `concurrency` at a time, and
 * runs each through `runItem`. A worker killed mid-item stops renewing its job's lock; BullMQ
 * then moves the job back to the queue (stalled-job recovery) and another worker continues it
 * from the try's events. `close` finishes the items in hand and takes no more; an item the
 * worker hands back (`ItemHandedBack`) returns to the queue for the next worker.
 */
import { WaitingError, Worker, type Job } from 'bullmq';
import { errorOf } from '../../base/reason.ts';
import { ItemHandedBack, type ItemJobData, type ItemJobResult } from './item-jobs.ts';
import { openRedis } from './queue-connection.ts';
import { QUEUE_NAME } from './queue-keys.ts';
import { TaskShareReader, type ItemJobWire } from './task-shares.ts';
import { workerConnectionName } from './worker-link.ts';

/** What a queue worker runs and reports. */
export interface QueueWorkerOptions {
  url: string;
  concurrency: number;
  /**
   * The worker's tag: its BullMQ name, so its connection in Redis's client list says it is
   * alive (the run process lets go of a gone worker's gate points and questions).
   */
  tag: string;
  /**
   * How long a job stays locked without its worker renewing it (default 30 s): the time after
   * which a killed worker's item goes to another worker.
   */
  lockMs?: number;
  /**
   * `retaken`: the job was taken before (its worker died or lost the lock), so that worker's
   * events of the try may be in Redis; a job taken for the first time has none to read.
   */
  runItem: (data: ItemJobData, signal: AbortSignal, retaken: boolean) => Promise<ItemJobResult>;
  /** A job settled (for the status line). */
  onSettled?: (data: ItemJobData, result: ItemJobResult | Error) => void;
  onStarted?: (data: ItemJobData) => void;
  /** A job went back to the queue unfinished (for the status line). */
  onHandedBack?: (data: ItemJobData) => void;
}

/** A started worker. */
export interface QueueWorker {
  /** Finishes the items in hand, takes no more, closes the connections. */
  close(): Promise<void>;
  /** Resolves once connected and taking jobs. */
  ready: Promise<void>;
}

/** Starts taking jobs. */
export function startQueueWorker(options: QueueWorkerOptions): QueueWorker {
  const connection = openRedis(options.url, workerConnectionName(options.tag, 'jobs'));
  const lockDuration = options.lockMs ?? 30_000;
  const shares = new TaskShareReader(connection);
  const worker = new Worker<ItemJobWire, ItemJobResult>(
    QUEUE_NAME,
    async (job: Job<ItemJobWire, ItemJobResult>, token?: string, signal?: AbortSignal) => {
      const data = await shares.expand(job.data);
      options.onStarted?.(data);
      try {
        const retaken = job.attemptsStarted > 1 || job.stalledCounter > 0;
        const aborted = signal ?? new AbortController().signal;
        const result = await options.runItem(data, aborted, retaken);
        options.onSettled?.(data, result);
        return result;
      } catch (error) {
        if (error instanceof ItemHandedBack && token !== undefined) {
          // Back to waiting, as taken never; BullMQ's WaitingError says the job was moved.
          await job.moveToWait(token);
          options.onHandedBack?.(data);
          throw new WaitingError();
        }
        options.onSettled?.(data, errorOf(error));
        throw error;
      }
    },
    {
      connection,
      name: options.tag,
      concurrency: options.concurrency,
      lockDuration,
      // A stalled job goes back to the queue at once, and again if its next worker dies too.
      stalledInterval: Math.max(1000, Math.floor(lockDuration / 2)),
      maxStalledCount: 5,
      // BullMQ obeys the queue's rate limit (`Queue.rateLimit`, set by a 429's pause: see
      // ModelPacing) only in a worker with a limiter; this one's maximum is never reached.
      limiter: { max: Number.MAX_SAFE_INTEGER, duration: 60_000 },
    },
  );
  worker.on('error', () => undefined);
  return {
    ready: worker.waitUntilReady().then(() => undefined),
    close: async () => {
      await worker.close();
      connection.disconnect();
    },
  };
}
