/**
 * Issue 5, through the real CLI: an agent fetches a large JSON array over HTTP, the array is
 * intercepted, the agent promotes it into a declared dataset with `result_to_dataset`, and a
 * downstream parallel iterated task runs one commander per item.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptTurn } from '../../src/testing/index.ts';
import {
  call,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  runDirs,
  sortie,
  startHttpServer,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

const USERS = Array.from({ length: 25 }, (_, index) => ({ id: index, name: `user-${index}` }));

const HCL = `
agent "fetcher" {
  model       = MODEL
  personality = "You fetch data over HTTP."
  tools       = [builtins.http.get]
}

mission "users" {
  commander {
    model = MODEL
  }
  dataset "users" {
    description = "Users fetched over HTTP"
    schema = {
      id   = integer("Id", true)
      name = string("Name", true)
    }
  }
  task "fetch" {
    objective = "Fetch the users into the users dataset"
    agents    = [agents.fetcher]
  }
  task "greet" {
    objective  = "Greet \${item.name}"
    depends_on = [tasks.fetch]
    iterator {
      dataset           = datasets.users
      parallel          = true
      concurrency_limit = 5
    }
    output = {
      greeting = string("The greeting", true)
    }
  }
  task "report" {
    objective  = "Report the greetings"
    depends_on = [tasks.greet]
  }
}
`;

/** One item's commander: plan, complete, submit its greeting, finish. */
function greetTurns(index: number): ScriptTurn[] {
  const commander = `commander:greet[${index}]`;
  return [
    call(commander, 'set_subtasks', { subtasks: ['Greet'] }),
    call(commander, 'complete_subtask'),
    call(commander, 'submit_output', { output: { greeting: `Hello, user-${index}!` } }),
    call(commander, 'task_complete', { summary: `greeted user-${index}` }),
  ];
}

describe('HTTP array → large result → dataset → parallel iteration (CLI)', () => {
  it('stores the fetched body, promotes it with result_to_dataset and iterates every item', async () => {
    const api = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(USERS));
    });
    const agent = 'agent:fetch/fetcher';
    const server = await startModelServer([
      ...delegatingTask(
        'fetch',
        'fetcher',
        [
          call(agent, 'builtins_http_get', { url: `${api.url}/users` }),
          call(
            agent,
            'result_to_dataset',
            { id: 'result_1', dataset_name: 'users' },
            { lastMessageContains: '"status":"partial"' },
          ),
          reply(agent, 'Stored 25 users in the users dataset.', {
            lastMessageContains: '"count":25',
          }),
        ],
        'Fetched 25 users',
      ),
      ...USERS.flatMap((_, index) => greetTurns(index)),
      call('commander:report', 'set_subtasks', { subtasks: ['Query'] }),
      call('commander:report', 'query_task_output', {
        task: 'greet',
        filters: [{ field: 'greeting', op: 'eq', value: 'Hello, user-17!' }],
      }),
      call('commander:report', 'query_task_output', {
        task: 'greet',
        aggregate: { op: 'count' },
      }),
      call('commander:report', 'complete_subtask'),
      call('commander:report', 'task_complete', { summary: 'Reported' }),
    ]);
    const project = await writeProject(HCL);
    const stateDir = join(await temporaryDirectory('state'), 'state');
    const run = await sortie([
      'run',
      project,
      '--json',
      '--var',
      'api_key=sk-test',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--state-dir',
      stateDir,
    ]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    server.assertDone();
    expect(api.received).toEqual([expect.objectContaining({ method: 'GET', url: '/users' })]);

    const events = jsonLines(run.stdout);
    const completed = events.filter((event) => event.type === 'tool.completed');
    const fetched = completed.find((event) => event.tool === 'builtins_http_get');
    const partial = JSON.parse(String(fetched?.result)) as Record<string, unknown>;
    expect(partial).toMatchObject({
      status: 'partial',
      result_id: 'result_1',
      type: 'array',
      total_items: 25,
      sample: USERS.slice(0, 5),
      http_status: 200,
      content_type: 'application/json',
    });
    // The stored result is the HTTP body itself, not the response envelope.
    const [runDir] = await runDirs(stateDir);
    const stored = await readFile(join(String(runDir), 'results', 'result_1.json'), 'utf8');
    expect(JSON.parse(stored)).toEqual(USERS);
    const promoted = completed.find((event) => event.tool === 'result_to_dataset');
    expect(JSON.parse(String(promoted?.result))).toEqual({
      status: 'ok',
      dataset: 'users',
      count: 25,
    });
    expect(events.filter((event) => event.type === 'dataset.locked')).toEqual([
      expect.objectContaining({ dataset: 'users', task: 'greet', count: 25 }),
    ]);

    // Each item's commander got its own item in its first request.
    for (const user of USERS) {
      const actor = `commander:greet[${user.id}]`;
      const first = server.requests.find((request) => request.actor === actor);
      const text = JSON.stringify(first?.body);
      expect(text).toContain(`Greet ${user.name}`);
      expect(text).toContain(JSON.stringify(JSON.stringify(user)).slice(1, -1));
    }

    const outputs = events
      .filter((event) => event.type === 'output.submitted')
      .map((event) => [event.index, event.output])
      .sort((left, right) => Number(left[0]) - Number(right[0]));
    expect(outputs).toEqual(USERS.map((user) => [user.id, { greeting: `Hello, ${user.name}!` }]));
    const succeeded = events.filter(
      (event) => event.type === 'iteration.succeeded' && event.task === 'greet',
    );
    expect(succeeded).toHaveLength(25);
    const queries = completed
      .filter((event) => event.tool === 'query_task_output')
      .map((event) => JSON.parse(String(event.result)) as unknown);
    expect(queries[0]).toEqual({
      status: 'ok',
      task: 'greet',
      total: 1,
      offset: 0,
      limit: 20,
      items: [
        {
          index: 17,
          item_id: '17',
          status: 'succeeded',
          output: { greeting: 'Hello, user-17!' },
        },
      ],
    });
    expect(queries[1]).toMatchObject({ status: 'ok', task: 'greet', result: 25 });
  }, 120_000);
});
