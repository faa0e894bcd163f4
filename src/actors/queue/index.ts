/**
 * Distributed runs on BullMQ and Redis (docs/distributed.md): the only folder that imports
 * `bullmq` and `ioredis`. The run and worker wiring load it lazily, so a run without `--queue`
 * never loads either.
 */
export { RunItemQueue, type RunQueueOptions } from './item-queue.ts';
export { ItemHandedBack, type ItemJobData, type ItemJobResult } from './item-jobs.ts';
export { startQueueWorker, type QueueWorker, type QueueWorkerOptions } from './queue-worker.ts';
export { checkQueueUrl, checkRedisReachable, shownQueueUrl } from './queue-connection.ts';
export { WorkerLink, workerConnectionName } from './worker-link.ts';
export type { EventPublisher } from './event-publisher.ts';
export type { WorkerControl } from './worker-control.ts';
export type { ModelPacing } from './model-pacing.ts';
