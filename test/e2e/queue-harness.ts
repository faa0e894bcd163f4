/**
 * Distributed runs for the end-to-end tests: the processes of test/e2e/queue-processes.ts, with
 * Redis's folder taken from the tests' temporary folders, and a queue test's tear-down.
 */
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';
import {
  startRedisIn,
  stopWorker,
  type RedisServer,
  type WorkerProcess,
} from './queue-processes.ts';

export {
  startWorker,
  stopWorker,
  waitForOutput,
  type RedisServer,
  type WorkerProcess,
} from './queue-processes.ts';

/** Starts redis-server; `dir` (a fresh temporary folder if not given) keeps its data across a restart. */
export function startRedis(
  options: { aof?: boolean; dir?: string; port?: number } = {},
): Promise<RedisServer> {
  return startRedisIn(options.dir ?? temporaryDirectorySync('redis'), options);
}

/** What a queue test cleans up after its last test. */
export interface QueueTestParts {
  workers?: readonly WorkerProcess[];
  redis?: RedisServer;
  server?: { close(): Promise<void> };
}

/** Stops a queue test's workers, its Redis and its model server. */
export async function tearDownQueueTest(parts: QueueTestParts): Promise<void> {
  for (const worker of parts.workers ?? []) await stopWorker(worker);
  await parts.redis?.stop();
  await parts.server?.close();
}
