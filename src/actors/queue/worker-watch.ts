/**
 * The run process's watch over the workers that wait on it: a worker killed while its actor is
 * held at the run's gate (or asks its person) sends no withdrawal, so the run process looks for
 * itself. Every worker is a BullMQ worker named by its tag, whose connection Redis lists while
 * the process lives (`Queue.getWorkers`, from CLIENT LIST); the requests of a worker no longer
 * listed are let go. The run looks when BullMQ reports a job of the run stalled (its worker
 * stopped renewing its lock) and every `WATCH_MS` while some request waits.
 */
import type { Queue, QueueEvents } from 'bullmq';
import type { RunControl } from './run-control.ts';

/**
 * How often the run process looks, while some worker's request waits. One CLIENT LIST: cheap
 * next to a person stepping, and a dead worker's held point leaves the gate within a second.
 */
const WATCH_MS = 1000;

/** The tags of the workers whose connection Redis lists; undefined when Redis cannot tell. */
async function aliveTags(queue: Queue): Promise<Set<string> | undefined> {
  const workers = (await queue.getWorkers()) as Array<{ rawname?: string }>;
  const tags = new Set<string>();
  for (const worker of workers) {
    // A Redis without CLIENT LIST (some managed services) answers with a placeholder.
    if (worker.rawname === undefined) return undefined;
    const marker = worker.rawname.lastIndexOf(':w:');
    if (marker >= 0) tags.add(worker.rawname.slice(marker + 3));
  }
  return tags;
}

/** Watches one run's waiting requests for workers that are gone. */
export class WorkerWatch {
  private timer: NodeJS.Timeout | undefined = undefined;
  private looking = false;
  private readonly onStalled = ({ jobId }: { jobId: string }): void => {
    if (jobId.startsWith(`${this.runId}/`)) void this.look();
  };

  constructor(
    private readonly queue: Queue,
    private readonly events: QueueEvents,
    private readonly control: RunControl,
    private readonly runId: string,
  ) {}

  start(): void {
    this.events.on('stalled', this.onStalled);
    this.timer = setInterval(() => void this.look(), WATCH_MS);
    this.timer.unref();
  }

  stop(): void {
    this.events.off('stalled', this.onStalled);
    clearInterval(this.timer);
  }

  private async look(): Promise<void> {
    if (this.looking || !this.control.waiting) return;
    this.looking = true;
    try {
      const alive = await aliveTags(this.queue);
      if (alive !== undefined) this.control.dropGone(alive);
    } catch {
      // Redis is away: look again at the next tick.
    } finally {
      this.looking = false;
    }
  }
}
