/**
 * Rate limits shared by all workers, with a real redis-server and two real worker processes:
 * a 429 with `Retry-After` answered to one worker's commander pauses that model
 * configuration on the other worker too, whose next request waits (a `queue.paced` warning
 * in the run's journal) instead of running into the limit. The scripted server orders what
 * matters instead of counting on timing: the 429 goes out once both items' commanders have
 * asked their first turn, and the other item's first reply only once the pause is in Redis
 * (a keyspace notification), so its next request is the first one the pause can meet. The
 * queue's intake is paused too (BullMQ's rate limit; its effect is tested in
 * test/actors/queue/item-intake.test.ts).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedis } from '../../src/actors/queue/queue-connection.ts';
import { QUEUE_NAME } from '../../src/actors/queue/queue-keys.ts';
import type { RespondRequest } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie } from './cli-resume-harness.ts';
import { queueTestForFile, startWorker } from './queue-harness.ts';

/** A promise with its resolver. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

let watcher: Redis;
/** The commander that got the 429 (the first to ask its first turn). */
let limited: string | undefined;
/** The other item's commander. */
let other: string | undefined;
const bothAsked = signal();
/** Whether a worker paused the queue's intake of items (BullMQ's global rate limit). */
let intakePaused = false;
const pauseHeld = signal();

/** The 429 to the first commander, once both have asked; the other's reply once it is paused. */
function respondInOrder(request: RespondRequest) {
  const respond = respondToPages(40);
  const actor = request.actor ?? '';
  if (!actor.startsWith('commander:') || anthropicCallsSoFar(request.body) !== 0) {
    return respond(request);
  }
  if (limited === undefined) {
    limited = actor;
    const error = { status: 429, message: 'rate limited', retryAfter: '2' };
    return { error, heldUntil: bothAsked.promise };
  }
  if (actor === limited) return respond(request);
  other = actor;
  bothAsked.resolve();
  const turn = respond(request);
  return turn === undefined ? undefined : { ...turn, heldUntil: pauseHeld.promise };
}

const queue = queueTestForFile({
  name: 'queue-pacing',
  respond: respondInOrder,
  hcl: largeResultProject(2),
  builtCli: true,
});

beforeAll(async () => {
  // Tells when a worker holds a model configuration's pause (a SET of its key).
  watcher = openRedis(queue.redis.url);
  await watcher.config('SET', 'notify-keyspace-events', 'K$');
  await watcher.psubscribe('__keyspace@0__:sortie:pace:*');
  // And when one sets the queue's rate limit (BullMQ's limiter key), pausing the intake.
  await watcher.psubscribe(`__keyspace@0__:bull:${QUEUE_NAME}:limiter`);
  watcher.on('pmessage', (pattern: string, _channel: string, command: string) => {
    if (command !== 'set') return;
    if (pattern.includes(':limiter')) intakePaused = true;
    else pauseHeld.resolve();
  });
});

afterAll(() => {
  watcher?.disconnect();
});

describe('a 429 on one worker', () => {
  it(
    'pauses the next request of the same model configuration on the other worker',
    { timeout: 240_000 },
    async () => {
      // One item per worker: both items' commanders ask at once only on different workers.
      for (let count = 0; count < 2; count++) {
        queue.workers.push(await startWorker(queue.redis.url, queue.target, { concurrency: 1 }));
      }
      const run = sortie(['run', queue.project, '--queue', queue.redis.url], queue.target);
      expect(await run.exited, run.stderr()).toBe(0);
      const events = journalOf(queue.target.stateDir, await run.runId);
      const retried = events.flatMap((event) =>
        event.type === 'model.retry' ? [[event.actor, event.status]] : [],
      );
      expect(retried).toEqual([[limited, 429]]);
      expect(intakePaused).toBe(true);
      const otherItem = other?.replace('commander:', '') ?? '';
      const models = new Set(['model.request', 'model.response', 'model.retry', 'warning']);
      const turns = (actor: string | undefined) =>
        events.flatMap((event) =>
          event.actor === actor && models.has(event.type)
            ? [event.type === 'warning' ? `warning ${event.code}` : event.type]
            : [],
        );
      // The other item's commander waits on its second request (journaled before it goes out),
      // and only then; its agent asks after the pause and is not paced.
      const turn = ['model.request', 'model.response'];
      expect(turns(other)).toEqual([
        ...turn,
        'model.request',
        'warning queue.paced',
        'model.response',
        ...turn,
        ...turn,
        ...turn,
      ]);
      expect(turns(`agent:${otherItem}/reader`)).toEqual(turn);
      const paced = events.find(
        (event) =>
          event.type === 'warning' && event.code === 'queue.paced' && event.actor === other,
      );
      const waited = Number(
        /waiting (\d+) ms/.exec(paced?.type === 'warning' ? paced.message : '')?.[1],
      );
      expect(waited).toBeGreaterThan(0);
      expect(waited).toBeLessThanOrEqual(2_000);
    },
  );
});
