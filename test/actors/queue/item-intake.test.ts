/**
 * A 429's pause stops the intake of new items too, on a real redis-server with a real queue
 * worker: BullMQ's global rate limiter of the queue holds every worker's next job until the
 * pause ends, while the pause of the model configuration holds the requests of items already
 * running.
 */
import { Queue } from 'bullmq';
import { afterAll, describe, expect, it } from 'vitest';
import type { ItemJobResult } from '../../../src/actors/queue/item-jobs.ts';
import { ModelPacing } from '../../../src/actors/queue/model-pacing.ts';
import { QUEUE_NAME } from '../../../src/actors/queue/queue-keys.ts';
import { startQueueWorker, type QueueWorker } from '../../../src/actors/queue/queue-worker.ts';
import { TaskShareWriter } from '../../../src/actors/queue/task-shares.ts';
import { itemJob } from './item-job.ts';
import { redisForFile } from './redis-for-file.ts';

const connection = redisForFile();
const opened: Array<{ close(): Promise<void> }> = [];

afterAll(async () => {
  for (const handle of opened.reverse()) await handle.close();
});

function queueHandle(): Queue {
  const queue = new Queue(QUEUE_NAME, { connection: connection() });
  opened.push(queue);
  return queue;
}

/** A queue worker whose items succeed at once; resolves each item's start time (ms). */
async function workerStarting(): Promise<{ started: Promise<number>; worker: QueueWorker }> {
  const { host, port, db } = connection().options;
  let startedAt = (_: number): void => undefined;
  const started = new Promise<number>((resolve) => (startedAt = resolve));
  const worker = startQueueWorker({
    url: `redis://${host ?? '127.0.0.1'}:${port ?? 6379}/${db ?? 0}`,
    concurrency: 1,
    tag: 'wintake',
    runItem: async (): Promise<ItemJobResult> => {
      startedAt(performance.now());
      return { outcome: { status: 'succeeded', output: null, durationMs: 0 }, lastEventId: null };
    },
  });
  opened.push(worker);
  await worker.ready;
  return { started, worker };
}

describe('the intake of items during a pause', () => {
  it('takes no new item on any worker until the pause of a 429 ends', async () => {
    const queue = queueHandle();
    const { started } = await workerStarting();
    const pacing = new ModelPacing(connection(), queue);
    const heldAt = performance.now();
    await pacing.hold('main', 1_500);
    await queue.add(
      'work',
      await new TaskShareWriter(connection(), 'run-intake').wire(itemJob(0, 'run-intake')),
    );
    // Waited out: the whole pause less the clocks' granularity (Redis rounds to milliseconds).
    expect((await started) - heldAt).toBeGreaterThanOrEqual(1_450);
  });

  it("pauses the intake for the longest pause held, not the latest 429's own wait", async () => {
    const queue = queueHandle();
    const pacing = new ModelPacing(connection(), queue);
    await pacing.hold('long', 60_000);
    await pacing.hold('long', 1_000);
    expect(await queue.getRateLimitTtl()).toBeGreaterThan(59_000);
    await queue.removeRateLimitKey();
  });
});
