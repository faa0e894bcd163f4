/**
 * `sortie run --queue` with real worker processes and a real redis-server: the items of a
 * parallel task run on the workers, their events reach the run's journal, and the outputs are
 * those of a local run.
 */
import { describe, expect, it } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { largeResultProject, respondToPages } from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie } from './cli-resume-harness.ts';
import { queueTestForFile, startWorker, stopWorker } from './queue-harness.ts';

const ITEMS = Number(process.env.SORTIE_QUEUE_TEST_ITEMS ?? 200);
const PAGE_BYTES = 40;

const queue = queueTestForFile({
  name: 'queue-run',
  respond: respondToPages(PAGE_BYTES),
  hcl: largeResultProject(ITEMS).replace('concurrency_limit = 2', 'concurrency_limit = 12'),
  builtCli: true,
});

function outputsOf(events: MissionEvent[]): Array<[number, unknown]> {
  return events
    .flatMap((event) =>
      event.type === 'iteration.succeeded'
        ? [[event.index, event.output] as [number, unknown]]
        : [],
    )
    .sort((left, right) => left[0] - right[0]);
}

describe('sortie run --queue across three workers', () => {
  it('gives the outputs of a local run, every item once, with the workers events in the journal', async () => {
    const local = sortie(['run', queue.project], queue.target);
    expect(await local.exited, local.stderr()).toBe(0);
    const localEvents = journalOf(queue.target.stateDir, await local.runId);

    for (let count = 0; count < 3; count++)
      queue.workers.push(await startWorker(queue.redis.url, queue.target));
    const before = queue.server.requests.length;
    const queued = sortie(['run', queue.project, '--queue', queue.redis.url], queue.target);
    expect(await queued.exited, queued.stderr()).toBe(0);
    const events = journalOf(queue.target.stateDir, await queued.runId);

    expect(outputsOf(events)).toEqual(outputsOf(localEvents));
    expect(outputsOf(events)).toHaveLength(ITEMS);
    // Six requests per item, as locally: nothing ran twice.
    expect(queue.server.requests.length - before).toBe(6 * ITEMS);
    const commanders = new Set(
      events.flatMap((event) => (event.type === 'model.response' ? [event.actor] : [])),
    );
    expect(commanders.size).toBe(2 * ITEMS);
    const finished = events.find((event) => event.type === 'run.finished');
    const localFinished = localEvents.find((event) => event.type === 'run.finished');
    expect(finished?.type === 'run.finished' ? finished.usage : null).toEqual(
      localFinished?.type === 'run.finished' ? localFinished.usage : undefined,
    );
    // Every worker took some of the items; SIGTERM stops each, which says what it ran.
    let succeeded = 0;
    for (const worker of queue.workers) {
      expect(worker.stderr()).toMatch(/read\[\d+\] try 1 succeeded/);
      expect(await stopWorker(worker)).toBe(0);
      const stopped = /sortie worker stopped: (\d+) succeeded, 0 failed/.exec(worker.stderr());
      succeeded += Number(stopped?.[1]);
    }
    expect(succeeded).toBe(ITEMS);
  }, 300_000);
});
