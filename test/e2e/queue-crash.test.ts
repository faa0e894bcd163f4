/**
 * Exactly once, seen from the run, with a real redis-server and real worker processes: a worker
 * killed with SIGKILL mid-item has its item continued by another worker from the try's events;
 * the run's process killed mid-run and resumed with `--queue` collects what the workers finished
 * meanwhile. Every output arrives once and no answered request is asked again (the scripted
 * server's request log), only the one a dead worker was waiting for.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import type { RespondRequest } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie, type Child } from './cli-resume-harness.ts';
import { queueTestForFile, startWorker } from './queue-harness.ts';

const ITEMS = 8;
const PAGE_BYTES = 40;
/** Requests of one item: five commander turns and one agent turn. */
const PER_ITEM = 6;

/** Called with each request before it is answered (the test's kill switch). */
let onRequest: (request: RespondRequest) => void = () => undefined;

const respondPages = respondToPages(PAGE_BYTES);
const queue = queueTestForFile({
  name: 'queue-crash',
  respond: (request) => {
    onRequest(request);
    return respondPages(request);
  },
  hcl: largeResultProject(ITEMS),
  builtCli: true,
});

afterEach(async () => {
  onRequest = () => undefined;
  await queue.stopWorkers();
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
  for (const request of queue.server.requests.slice(from)) {
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
    const before = queue.server.requests.length;
    // The only worker, one item at a time: when it dies, exactly one request is unanswered.
    const first = await startWorker(queue.redis.url, queue.target, {
      concurrency: 1,
      lockTimeout: 4,
    });
    queue.workers.push(first);
    let killedAt: string | undefined;
    onRequest = (request) => {
      if (killedAt !== undefined || request.actor !== 'commander:read[0]') return;
      if (anthropicCallsSoFar(request.body) !== 3) return;
      killedAt = `${request.actor} 3`;
      first.process.kill('SIGKILL');
    };
    const run = sortie(['run', queue.project, '--queue', queue.redis.url], queue.target);
    await first.exited;
    queue.workers.push(await startWorker(queue.redis.url, queue.target, { lockTimeout: 4 }));
    expect(await exitOf(run), run.stderr()).toBe(0);

    expectEveryOutputOnce(journalOf(queue.target.stateDir, await run.runId));
    // The killed worker's unanswered request is the only one asked twice: the item went on
    // from its journaled conversation, and no other request was made again.
    expect(repeatedRequests(before)).toEqual([killedAt]);
    expect(queue.server.requests.length - before).toBe(PER_ITEM * ITEMS + 1);
  }, 240_000);

  it('collects on resume --queue what the workers finished while the run process was dead', async () => {
    const before = queue.server.requests.length;
    queue.workers.push(await startWorker(queue.redis.url, queue.target, { concurrency: 2 }));
    let answered = 0;
    onRequest = () => {
      answered += 1;
      // Mid-run: some items done, two in the workers' hands.
      if (answered === 3 * PER_ITEM + 2) run.process.kill('SIGKILL');
    };
    const run = sortie(['run', queue.project, '--queue', queue.redis.url], queue.target);
    expect(await exitOf(run)).toBe(null);
    const runId = await run.runId;
    const resumed = sortie(
      ['resume', runId, queue.project, '--queue', queue.redis.url],
      queue.target,
    );
    expect(await exitOf(resumed), resumed.stderr()).toBe(0);

    const journal = journalOf(queue.target.stateDir, runId);
    expectEveryOutputOnce(journal);
    // No relayed event was journaled twice, though the stream was read again from a saved cursor.
    const relays = journal.flatMap((event) => (event.relay === undefined ? [] : [event.relay]));
    expect(relays.length).toBeGreaterThan(0);
    expect(new Set(relays).size).toBe(relays.length);
    expect(repeatedRequests(before)).toEqual([]);
    expect(queue.server.requests.length - before).toBe(PER_ITEM * ITEMS);
  }, 240_000);
});
