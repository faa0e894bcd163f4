/**
 * Limits that hold across all workers of a distributed run (real redis-server, two real worker
 * processes of four slots each, the real CLI): a task's `concurrency_limit`, checked from the
 * scripted server's request log, and a task's budget, counted by the run process over every
 * worker's spending.
 */
import { describe, expect, it } from 'vitest';
import type { RespondRequest, ScriptTurn } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie } from './cli-resume-harness.ts';
import { eventsOf } from './queue-control-harness.ts';
import { projectFolder, queueTestForFile } from './queue-harness.ts';

const PAGE_BYTES = 40;
/** The commander's fifth request (after four tool calls) is an item's last. */
const LAST_COMMANDER_STEP = 4;

/**
 * The pages' script; a commander's first answer takes a moment, so that the items a worker
 * slot is free for overlap (a pace, not a measurement: nothing is timed).
 */
function respond(request: RespondRequest): ScriptTurn | undefined {
  const turn = respondToPages(PAGE_BYTES)(request);
  const first = request.actor?.startsWith('commander:') && anthropicCallsSoFar(request.body) === 0;
  return turn !== undefined && first === true ? { ...turn, delayMs: 300 } : turn;
}

const queue = queueTestForFile({ name: 'queue-limits', respond, workers: 2 });

/**
 * The most items in flight at once, from the order requests reached the server: an item is in
 * flight from its commander's first request until its last.
 */
function mostItemsInFlight(from: number): number {
  const inFlight = new Set<string>();
  let most = 0;
  for (const request of queue.server.requests.slice(from)) {
    const actor = request.actor ?? '';
    if (!/^commander:read\[\d+\]$/.test(actor)) continue;
    const step = anthropicCallsSoFar(request.body);
    if (step === 0) inFlight.add(actor);
    most = Math.max(most, inFlight.size);
    if (step === LAST_COMMANDER_STEP) inFlight.delete(actor);
  }
  return most;
}

describe('limits across workers', () => {
  it('holds a task concurrency_limit across all workers together', async () => {
    const hcl = largeResultProject(10).replace('concurrency_limit = 2', 'concurrency_limit = 3');
    const before = queue.server.requests.length;
    const run = sortie(
      ['run', projectFolder('queue-limits', hcl), '--queue', queue.redis.url],
      queue.target,
    );
    expect(await run.exited, run.stderr()).toBe(0);
    // Eight worker slots, three items at a time.
    expect(mostItemsInFlight(before)).toBe(3);
    expect(queue.server.requests.length - before).toBe(6 * 10);
  }, 180_000);

  it('counts every worker spending against a task budget and stops later items before any request', async () => {
    const hcl = largeResultProject(8).replace(
      'concurrency_limit = 2\n    }',
      'concurrency_limit = 2\n    }\n    budget {\n      tokens = 1000\n    }',
    );
    const run = sortie(
      ['run', projectFolder('queue-limits', hcl), '--queue', queue.redis.url, '--keep-going'],
      queue.target,
    );
    expect(await run.exited, run.stderr()).toBe(1);
    const events = journalOf(queue.target.stateDir, await run.runId);

    const exceeded = eventsOf(events, 'budget.exceeded');
    expect(exceeded[0]).toMatchObject({ scope: 'task', subject: 'read', metric: 'tokens' });
    expect(exceeded[0]?.limit).toBe(1000);
    // Each item spends 608 tokens: the run's count crosses 1,000 only with two items' spending.
    expect(Number(exceeded[0]?.used)).toBeGreaterThan(608);
    const breachAt = events.indexOf(exceeded[0]!);
    const later = eventsOf(events.slice(breachAt), 'iteration.started').map((event) => event.index);
    expect(later.length).toBeGreaterThan(0);
    for (const index of later) {
      const actor = `commander:read[${index}]`;
      const requests = events.filter(
        (event) => event.type === 'model.request' && event.actor === actor,
      );
      expect(requests).toEqual([]);
      const failed = eventsOf(events, 'iteration.failed').find((event) => event.index === index);
      expect(failed?.error).toContain('budget exceeded: task "read" used');
    }
  }, 180_000);
});
