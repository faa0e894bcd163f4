/**
 * What a worker reads from and sends to Redis besides jobs: the run's project, a try's
 * journaled events (to continue an item another worker left), the event relay and the
 * control path to the run process.
 */
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { MissionEvent } from '../../base/events.ts';
import { EventPublisher } from './event-publisher.ts';
import { ModelPacing } from './model-pacing.ts';
import { openRedis } from './queue-connection.ts';
import { QUEUE_NAME, runKeys } from './queue-keys.ts';
import { downloadProject } from './project-transfer.ts';
import { WorkerControl, type WorkerControlListeners } from './worker-control.ts';

/** The name of a worker's connections in Redis's client list (`sortie:worker:TAG…`). */
export function workerConnectionName(tag: string, what?: string): string {
  return `sortie:worker:${tag}${what === undefined ? '' : `:${what}`}`;
}

/** One worker process's connection for everything but the jobs themselves. */
export class WorkerLink {
  private readonly redis: Redis;
  /** The item queue, for the intake's pause (BullMQ's global rate limit). */
  private intake: Queue | undefined;

  constructor(
    private readonly url: string,
    /** The worker's tag: names its connections. */
    private readonly tag: string,
  ) {
    this.redis = openRedis(url, workerConnectionName(tag));
  }

  /** The run's project, written under `cacheRoot` (once per project version). */
  project(runId: string, cacheRoot: string): Promise<string> {
    return downloadProject(this.redis, runId, cacheRoot);
  }

  /** The events an earlier worker sent for this try of the item, in order (none: a fresh try). */
  async itemEvents(
    runId: string,
    task: string,
    index: number,
    attempt: number,
  ): Promise<MissionEvent[]> {
    const texts = await this.redis.lrange(runKeys(runId).item(task, index, attempt), 0, -1);
    return texts.map((text, position) => ({ ...JSON.parse(text), seq: position + 1, runId }));
  }

  /** The relay of one run's events from this worker; `tag` prefixes its request ids. */
  publisher(runId: string, tag: string): EventPublisher {
    return new EventPublisher(this.redis, runId, tag);
  }

  /** The control path of one run (gate, questions, breaches, cancels); `tag` names requests. */
  control(runId: string, tag: string, listeners: WorkerControlListeners): WorkerControl {
    const reader = (): Redis =>
      openRedis(this.url, workerConnectionName(this.tag, `control:${runId}`));
    return new WorkerControl(this.redis, reader, runId, tag, listeners);
  }

  /** The pauses of model configurations shared by every worker. */
  pacing(): ModelPacing {
    this.intake ??= new Queue(QUEUE_NAME, { connection: this.redis });
    return new ModelPacing(this.redis, this.intake);
  }

  close(): void {
    // The queue handle shares the link's connection: closing it sends nothing.
    void this.intake?.close().catch(() => undefined);
    this.redis.disconnect();
  }
}
