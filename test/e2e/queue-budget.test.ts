/**
 * A task's budget on workers stops an item on the turn that crosses it, as a local run does
 * (real redis-server, two real worker processes, the real CLI): the same mission run locally
 * and with `--queue` sends the very same requests, checked from the scripted server's request
 * log. Items run one at a time, so both runs spend in the same order.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie, type SortieTarget } from './cli-resume-harness.ts';
import { eventsOf } from './queue-control-harness.ts';
import {
  startRedis,
  startWorker,
  tearDownQueueTest,
  type RedisServer,
  type WorkerProcess,
} from './queue-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

let server: ScriptedModelServer;
let redis: RedisServer;
let target: SortieTarget;
let project: string;
const workers: WorkerProcess[] = [];

/**
 * Four pages, one at a time, a task budget of 1,400 tokens. An item spends 608 (five commander
 * turns of 110, one agent turn of 58): the third item's second commander turn (its
 * `call_agent`) brings the task to 1,436.
 */
const HCL = largeResultProject(4).replace(
  'concurrency_limit = 2\n    }',
  'concurrency_limit = 1\n    }\n    budget {\n      tokens = 1400\n    }',
);

beforeAll(async () => {
  server = await ScriptedModelServer.start({ respond: respondToPages(40) });
  redis = await startRedis();
  project = temporaryDirectorySync('queue-budget');
  writeFileSync(join(project, 'main.hcl'), HCL);
  target = {
    stateDir: temporaryDirectorySync('queue-budget-state'),
    baseUrl: server.baseUrl('anthropic'),
  };
  for (let count = 0; count < 2; count++) {
    workers.push(await startWorker(redis.url, target, { concurrency: 1 }));
  }
}, 120_000);

afterAll(async () => {
  await tearDownQueueTest({ workers, redis, server });
});

/** The requests one run sent, as `actor@turn`, in the order they reached the server. */
async function requestsOf(args: string[]) {
  const before = server.requests.length;
  const run = sortie(['run', project, '--keep-going', ...args], target);
  expect(await run.exited, run.stderr()).toBe(1);
  const sent = server.requests
    .slice(before)
    .map((request) => `${request.actor}@${anthropicCallsSoFar(request.body)}`);
  return { sent, events: journalOf(target.stateDir, await run.runId) };
}

/** An item's full conversation: five commander turns around its agent's one. */
function wholeItem(index: number): string[] {
  const commander = `commander:read[${index}]`;
  return [
    `${commander}@0`,
    `${commander}@1`,
    `agent:read[${index}]/reader@0`,
    `${commander}@2`,
    `${commander}@3`,
    `${commander}@4`,
  ];
}

describe('a task budget on workers', () => {
  it('stops the item on the turn that crosses it, sending what a local run sends', async () => {
    const local = await requestsOf([]);
    const queued = await requestsOf(['--queue', redis.url]);
    // The crossing turn asks for the agent; neither run sends the agent's request, and the
    // fourth item sends nothing.
    const expected = [
      ...wholeItem(0),
      ...wholeItem(1),
      'commander:read[2]@0',
      'commander:read[2]@1',
    ];
    expect(local.sent).toEqual(expected);
    expect(queued.sent).toEqual(expected);
    for (const { events } of [local, queued]) {
      const exceeded = eventsOf(events, 'budget.exceeded');
      expect(exceeded.map((event) => [event.actor, event.used, event.limit])).toEqual([
        ['commander:read[2]', 1436, 1400],
      ]);
      const failed = eventsOf(events, 'iteration.failed').map((event) => [
        event.index,
        event.error,
      ]);
      const message = 'budget exceeded: task "read" used 1,436 of 1,400 tokens';
      expect(failed).toEqual([
        [2, expect.stringContaining(message)],
        [3, expect.stringContaining(message)],
      ]);
    }
  }, 240_000);
});
