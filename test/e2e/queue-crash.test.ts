/**
 * Exactly once, seen from the run, with a real redis-server and real worker processes: a worker
 * killed with SIGKILL mid-item has its item continued by another worker from the try's events;
 * the run's process killed mid-run and resumed with `--queue` collects what the workers finished
 * meanwhile. Every output arrives once and no answered request is asked again (the scripted
 * server's request log), only the one a dead worker was waiting for.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer, type RespondRequest } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { journalOf, sortie, type Child, type SortieTarget } from './cli-resume-harness.ts';
import {
  tearDownQueueTest,
  startRedis,
  startWorker,
  stopWorker,
  type RedisServer,
  type WorkerProcess,
} from './queue-harness.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const ITEMS = 8;
const PAGE_BYTES = 40;
/** Requests of one item: five commander turns and one agent turn. */
const PER_ITEM = 6;

let server: ScriptedModelServer;
let redis: RedisServer;
let project: string;
let target: SortieTarget;
let workers: WorkerProcess[] = [];
/** Called with each request before it is answered (the test's kill switch). */
let onRequest: (request: RespondRequest) => void = () => undefined;

beforeAll(async () => {
  const respond = respondToPages(PAGE_BYTES);
  server = await ScriptedModelServer.start({
    respond: (request) => {
      onRequest(request);
      return respond(request);
    },
  });
  redis = await startRedis();
  project = temporaryDirectorySync('queue-crash');
  writeFileSync(join(project, 'main.hcl'), largeResultProject(ITEMS));
  target = {
    stateDir: temporaryDirectorySync('queue-crash-state'),
    baseUrl: server.baseUrl('anthropic'),
    // What users run: the built CLI, for the run's process and every worker.
    cli: builtBin(await builtCli()),
  };
  // The first test file to ask for the built CLI builds it (tsc), slow on a busy machine.
}, 600_000);

afterEach(async () => {
  onRequest = () => undefined;
  for (const worker of workers) await stopWorker(worker);
  workers = [];
});

afterAll(async () => {
  await tearDownQueueTest({ redis, server });
});

/** Each item's outputs over the whole journal (every session of the run). */
function outputsByItem(events: MissionEvent[]): Map<number, unknown[]> {
  const outputs = new Map<number, unknown[]>();
  for (const event of events) {
    if (event.type !== 'iteration.succeeded') continue;
    outputs.set(event.index, [...(outputs.get(event.index) ?? []), event.output]);
  }
  return outputs;
}

function expectEveryOutputOnce(events: MissionEvent[]): void {
  const outputs = outputsByItem(events);
  expect([...outputs.keys()].sort((a, b) => a - b)).toEqual([...Array(ITEMS).keys()]);
  for (const list of outputs.values()) expect(list).toEqual([{ chars: PAGE_BYTES }]);
}

/** Requests per actor and step of its conversation: each asked once, except `twice`. */
function repeatedRequests(from: number): string[] {
  const seen = new Map<string, number>();
  for (const request of server.requests.slice(from)) {
    const key = `${request.actor} ${anthropicCallsSoFar(request.body)}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return [...seen].filter(([, count]) => count > 1).map(([key]) => key);
}

async function exitOf(child: Child): Promise<number | null> {
  return child.exited;
}

describe('sortie run --queue when a process dies', () => {
  it('continues the item of a worker killed mid-item on another worker, from its events', async () => {
    const before = server.requests.length;
    // The only worker, one item at a time: when it dies, exactly one request is unanswered.
    const first = await startWorker(redis.url, target, { concurrency: 1, lockTimeout: 4 });
    workers.push(first);
    let killedAt: string | undefined;
    onRequest = (request) => {
      if (killedAt !== undefined || request.actor !== 'commander:read[0]') return;
      if (anthropicCallsSoFar(request.body) !== 3) return;
      killedAt = `${request.actor} 3`;
      first.process.kill('SIGKILL');
    };
    const run = sortie(['run', project, '--queue', redis.url], target);
    await first.exited;
    workers.push(await startWorker(redis.url, target, { lockTimeout: 4 }));
    expect(await exitOf(run), run.stderr()).toBe(0);

    expectEveryOutputOnce(journalOf(target.stateDir, await run.runId));
    // The killed worker's unanswered request is the only one asked twice: the item went on
    // from its journaled conversation, and no other request was made again.
    expect(repeatedRequests(before)).toEqual([killedAt]);
    expect(server.requests.length - before).toBe(PER_ITEM * ITEMS + 1);
  }, 240_000);

  it('collects on resume --queue what the workers finished while the run process was dead', async () => {
    const before = server.requests.length;
    workers.push(await startWorker(redis.url, target, { concurrency: 2 }));
    let answered = 0;
    onRequest = () => {
      answered += 1;
      // Mid-run: some items done, two in the workers' hands.
      if (answered === 3 * PER_ITEM + 2) run.process.kill('SIGKILL');
    };
    const run = sortie(['run', project, '--queue', redis.url], target);
    expect(await exitOf(run)).toBe(null);
    const runId = await run.runId;
    const resumed = sortie(['resume', runId, project, '--queue', redis.url], target);
    expect(await exitOf(resumed), resumed.stderr()).toBe(0);

    const journal = journalOf(target.stateDir, runId);
    expectEveryOutputOnce(journal);
    // No relayed event was journaled twice, though the stream was read again from a saved cursor.
    const relays = journal.flatMap((event) => (event.relay === undefined ? [] : [event.relay]));
    expect(relays.length).toBeGreaterThan(0);
    expect(new Set(relays).size).toBe(relays.length);
    expect(repeatedRequests(before)).toEqual([]);
    expect(server.requests.length - before).toBe(PER_ITEM * ITEMS);
  }, 240_000);
});
