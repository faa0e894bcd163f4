/**
 * Redis restarted mid-run with its append-only file on loses nothing: the run's process and the
 * workers reconnect, the jobs, the event stream and the project survive, and every item's output
 * arrives once with every request asked once.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { largeResultProject, respondToPages } from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie, type SortieTarget } from './cli-resume-harness.ts';
import {
  tearDownQueueTest,
  startRedis,
  startWorker,
  type RedisServer,
  type WorkerProcess,
} from './queue-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ITEMS = 6;
const PER_ITEM = 6;

let server: ScriptedModelServer;
let redis: RedisServer;
let restarted: Promise<RedisServer> | undefined;
let project: string;
let target: SortieTarget;
const workers: WorkerProcess[] = [];
let answered = 0;

beforeAll(async () => {
  const respond = respondToPages(40);
  server = await ScriptedModelServer.start({
    respond: (request) => {
      answered += 1;
      // Mid-run: Redis stops (flushing its append-only file) and starts again on its folder.
      if (answered === 2 * PER_ITEM + 1) {
        const { port, dir } = redis;
        restarted = redis.stop().then(() => startRedis({ aof: true, dir, port }));
      }
      return respond(request);
    },
  });
  redis = await startRedis({ aof: true });
  project = temporaryDirectorySync('queue-restart');
  writeFileSync(join(project, 'main.hcl'), largeResultProject(ITEMS));
  target = {
    stateDir: temporaryDirectorySync('queue-restart-state'),
    baseUrl: server.baseUrl('anthropic'),
  };
});

afterAll(async () => {
  const last = (await restarted) ?? redis;
  await tearDownQueueTest({ workers, redis: last, server });
});

describe('Redis restarted mid-run (append-only file on)', () => {
  it('loses no job, event or output', async () => {
    const before = server.requests.length;
    workers.push(await startWorker(redis.url, target, { concurrency: 2 }));
    const run = sortie(['run', project, '--queue', redis.url], target);
    expect(await run.exited, run.stderr()).toBe(0);
    expect(restarted).toBeDefined();
    const events = journalOf(target.stateDir, await run.runId);
    const outputs = events.flatMap((event) =>
      event.type === 'iteration.succeeded' ? [[event.index, event.output]] : [],
    );
    expect(outputs.sort((left, right) => Number(left[0]) - Number(right[0]))).toEqual(
      [...Array(ITEMS).keys()].map((index) => [index, { chars: 40 }]),
    );
    expect(server.requests.length - before).toBe(PER_ITEM * ITEMS);
  }, 240_000);
});
