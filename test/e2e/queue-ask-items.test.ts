/**
 * `ask_commander` to an item commander of an earlier parallel task whose items ran on workers
 * (`--queue`), with a real redis-server, two real worker processes and the scripted model
 * server: the run's process answers from that item's conversation as relayed by its worker,
 * for a question from one of its own commanders and from a later task's item on a worker, and
 * after the run's process was killed mid-task and resumed with `resume --queue`.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, RespondRequest, ScriptTurn } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { sortie } from './cli-resume-harness.ts';
import { eventsOf, startQueuedRun } from './queue-control-harness.ts';
import { queueTestForFile } from './queue-harness.ts';
import { call } from '../helpers/script-turns.ts';

const ITEMS = 4;
const PAGE_BYTES = 40;
/** Requests of one item of `read`: five commander turns and one agent turn. */
const PER_ITEM = 6;

/** Called with each request before it is answered (the resume test's kill switch). */
let onRequest: (request: RespondRequest) => void = () => undefined;

/**
 * `read` over four pages on the workers; then `report` (in the run's process) asks item 2's
 * commander and `check` (two items, on the workers) asks the commanders of items 1 and 3.
 */
function askingProject(): string {
  return largeResultProject(ITEMS)
    .replace(
      '  dataset "pages" {',
      '  dataset "checks" {\n    items = [{ n = 1 }, { n = 3 }]\n  }\n  dataset "pages" {',
    )
    .replace(
      /\n}\n$/,
      `
  task "report" {
    objective = "Report on page 2"
    depends_on = [tasks.read]
  }
  task "check" {
    objective = "Check page \${item.n}"
    depends_on = [tasks.read]
    iterator {
      dataset = datasets.checks
      parallel = true
    }
  }
}
`,
    );
}

/** A commander that asks `read`'s item `index` a question, then completes. */
function askingSteps(index: number): ScriptTurn[] {
  return [
    call('set_subtasks', { subtasks: ['Ask the reader'] }),
    call('ask_commander', { task_name: 'read', index, question: `What did page ${index} hold?` }),
    call('complete_subtask'),
    call('task_complete', { summary: `asked about page ${index}` }),
  ];
}

function respond(request: RespondRequest): ScriptTurn | undefined {
  onRequest(request);
  const actor = request.actor ?? '';
  const step = anthropicCallsSoFar(request.body);
  if (actor === 'commander:report') return askingSteps(2)[step];
  const check = /^commander:check\[(\d)\]$/.exec(actor);
  if (check !== null) return askingSteps(Number(check[1]) === 0 ? 1 : 3)[step];
  const fork = /^commander:read\[(\d)\]#fork$/.exec(actor);
  if (fork !== null) return { text: `Page ${fork[1]} answers.`, usage: { input: 30, output: 5 } };
  return respondToPages(PAGE_BYTES)(request);
}

const queue = queueTestForFile({
  name: 'queue-ask-items',
  respond,
  hcl: askingProject(),
  workers: 2,
});

interface AnthropicBody {
  system?: unknown;
  messages: Array<{ role: string; content: unknown }>;
}

function bodyOf(request: RecordedRequest | undefined): AnthropicBody {
  return (request?.body ?? { messages: [] }) as AnthropicBody;
}

/** The requests since `from` of `actor`, in order. */
function requestsOf(from: number, actor: string): RecordedRequest[] {
  return queue.server.requests.slice(from).filter((request) => request.actor === actor);
}

/** Drops Anthropic's prompt-cache markers, which sit on whichever message is last. */
function withoutCacheMarks(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, inner: unknown) =>
    key === 'cache_control' ? undefined : inner,
  );
}

/**
 * The fork that answered about item `index` was sent that item's conversation: the item's
 * system prompt and every message of its last request, then its `task_complete` call.
 */
function expectForkOfItem(from: number, index: number): void {
  const forks = requestsOf(from, `commander:read[${index}]#fork`);
  expect(forks).toHaveLength(1);
  const fork = bodyOf(forks[0]);
  const item = bodyOf(requestsOf(from, `commander:read[${index}]`).at(-1));
  expect(item.messages.length).toBe(2 * (PER_ITEM - 1) - 1);
  expect(withoutCacheMarks(fork.system)).toEqual(withoutCacheMarks(item.system));
  expect(withoutCacheMarks(fork.messages.slice(0, item.messages.length))).toEqual(
    withoutCacheMarks(item.messages),
  );
  const completion = JSON.stringify(fork.messages[item.messages.length]);
  expect(completion).toContain(`read page ${index}`);
  expect(JSON.stringify(fork.messages.at(-1))).toContain(`What did page ${index} hold?`);
}

/**
 * Items 1, 2 and 3 were each asked once (2 by `report`, 1 and 3 by `check`'s items), from
 * their own conversations, and each asker got its answer as the tool's result.
 */
function expectEveryAnswer(from: number): void {
  for (const index of [1, 2, 3]) expectForkOfItem(from, index);
  const asker = (actor: string) => JSON.stringify(bodyOf(requestsOf(from, actor)[2]).messages);
  expect(asker('commander:report')).toContain('Page 2 answers.');
  expect(asker('commander:check[0]')).toContain('Page 1 answers.');
  expect(asker('commander:check[1]')).toContain('Page 3 answers.');
}

describe('ask_commander to item commanders that ran on workers', () => {
  it('is answered from the item conversation, asked from the run process and from a worker item', async () => {
    const before = queue.server.requests.length;
    const run = await startQueuedRun(queue.runOptions());
    const result = await run.done;
    expect(result.status).toBe('succeeded');

    const answered = eventsOf(run.events, 'question.answered');
    expect(answered.map((event) => [event.actor, event.iteration, event.answer]).sort()).toEqual([
      ['commander:read[1]', 1, 'Page 1 answers.'],
      ['commander:read[2]', 2, 'Page 2 answers.'],
      ['commander:read[3]', 3, 'Page 3 answers.'],
    ]);
    expectEveryAnswer(before);
  }, 240_000);

  it('is answered after the run process was killed mid-task and resumed with --queue', async () => {
    const before = queue.server.requests.length;
    let answered = 0;
    onRequest = (request) => {
      if (!/^(commander|agent):read\[/.test(request.actor ?? '')) return;
      answered += 1;
      // Mid-`read`: two items done, two in the workers' hands.
      if (answered === 2 * PER_ITEM + 2) run.process.kill('SIGKILL');
    };
    const run = sortie(['run', queue.project, '--queue', queue.redis.url], queue.target);
    expect(await run.exited).toBe(null);
    onRequest = () => undefined;
    const runId = await run.runId;
    const resumed = sortie(
      ['resume', runId, queue.project, '--queue', queue.redis.url],
      queue.target,
    );
    expect(await resumed.exited, resumed.stderr()).toBe(0);

    // Some of the items asked had settled before the kill, the others after.
    expectEveryAnswer(before);
  }, 240_000);
});
