/**
 * `query_task_output` from an item commander that runs on a worker (`--queue`), with a real
 * redis-server, a real worker process and the scripted model server: the worker reads the
 * task states the run process holds (its ancestor `read` succeeded there), so the call gets
 * `read`'s records instead of "has not completed".
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest, RespondRequest, ScriptTurn } from '../../src/testing/index.ts';
import {
  anthropicCallsSoFar,
  largeResultProject,
  pageOutput,
  respondToPages,
} from '../actors/resume/large-result-fixture.ts';
import { startQueuedRun } from './queue-control-harness.ts';
import { queueTestForFile } from './queue-harness.ts';
import { call } from '../helpers/script-turns.ts';

const PAGE_BYTES = 40;

/** `read` over two pages on the worker, then `check` (one item, on the worker too) after it. */
function queryingProject(): string {
  return largeResultProject(2)
    .replace(
      '  dataset "pages" {',
      '  dataset "checks" {\n    items = [{ n = 1 }]\n  }\n  dataset "pages" {',
    )
    .replace(
      /\n}\n$/,
      `
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

const CHECK_STEPS: ScriptTurn[] = [
  call('set_subtasks', { subtasks: ['Query the pages read'] }),
  call('query_task_output', { task: 'read' }),
  call('complete_subtask'),
  call('task_complete', { summary: 'checked' }),
];

function respond(request: RespondRequest): ScriptTurn | undefined {
  if (request.actor === 'commander:check[0]') return CHECK_STEPS[anthropicCallsSoFar(request.body)];
  return respondToPages(PAGE_BYTES)(request);
}

const queue = queueTestForFile({
  name: 'queue-query-output',
  respond,
  hcl: queryingProject(),
  workers: 1,
});

/** The result the model was sent for the last tool call of `request`'s conversation. */
function lastToolResult(request: RecordedRequest | undefined): unknown {
  const messages = (request?.body as { messages: Array<{ content: unknown }> }).messages;
  const blocks = messages.at(-1)?.content as Array<{ type: string; content: unknown }>;
  const result = blocks.find((block) => block.type === 'tool_result')?.content;
  const text = Array.isArray(result) ? (result[0] as { text: string }).text : String(result);
  return JSON.parse(text) as unknown;
}

describe('query_task_output from an item on a worker', () => {
  it("gets its completed ancestor's records", async () => {
    const run = await startQueuedRun(queue.runOptions());
    const result = await run.done;
    expect(result.status).toBe('succeeded');

    const checks = queue.server.requests.filter(
      (request) => request.actor === 'commander:check[0]',
    );
    expect(checks).toHaveLength(4);
    expect(lastToolResult(checks[2])).toEqual({
      status: 'ok',
      task: 'read',
      total: 2,
      offset: 0,
      limit: 20,
      items: [
        { index: 0, item_id: 'item_0', status: 'succeeded', output: pageOutput(PAGE_BYTES) },
        { index: 1, item_id: 'item_1', status: 'succeeded', output: pageOutput(PAGE_BYTES) },
      ],
    });
  }, 240_000);
});
