/**
 * A task's budget on workers stops an item on the turn that crosses it, as a local run does
 * (real redis-server, two real worker processes, the real CLI): the same mission run locally
 * and with `--queue` sends the very same requests, checked from the scripted server's request
 * log. Items run one at a time, so both runs spend in the same order.
 */
import { describe, expect, it } from 'vitest';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { journalOf, sortie } from './cli-resume-harness.ts';
import { eventsOf } from './queue-control-harness.ts';
import { queueTestForFile } from './queue-harness.ts';

/**
 * Four pages, one at a time, a task budget of 1,400 tokens. An item spends 608 (five commander
 * turns of 110, one agent turn of 58): the third item's second commander turn (its
 * `call_agent`) brings the task to 1,436.
 */
const HCL = largeResultProject(4).replace(
  'concurrency_limit = 2\n    }',
  'concurrency_limit = 1\n    }\n    budget {\n      tokens = 1400\n    }',
);

const queue = queueTestForFile({
  name: 'queue-budget',
  respond: respondToPages(40),
  hcl: HCL,
  workers: 2,
  worker: { concurrency: 1 },
});

/** The requests one run sent, as `actor@turn`, in the order they reached the server. */
async function requestsOf(args: string[]) {
  const before = queue.server.requests.length;
  const run = sortie(['run', queue.project, '--keep-going', ...args], queue.target);
  expect(await run.exited, run.stderr()).toBe(1);
  const sent = queue.server.requests
    .slice(before)
    .map((request) => `${request.actor}@${anthropicCallsSoFar(request.body)}`);
  return { sent, events: journalOf(queue.target.stateDir, await run.runId) };
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
    const queued = await requestsOf(['--queue', queue.redis.url]);
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
