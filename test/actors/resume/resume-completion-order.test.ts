/**
 * An agent's tool calls of one reply run together, and each call's `tool.completed` is
 * journaled when it finishes (completion order), while its result goes back to the model in
 * call order. A run cut right after the first call to finish — resumed, or forked there — gives
 * that call its journaled result and the other the interrupted result, in call order, whichever
 * of the two finished first; neither tool runs again.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunOptions, RunResult } from '../../../src/actors/contracts.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import { loadProject } from '../../../src/config/index.ts';
import type { Config } from '../../../src/config/config-types.ts';
import { forkEvents, isForkPoint } from '../../../src/journal/fork-journal.ts';
import { restoreFromJournal } from '../../../src/journal/restore.ts';
import { startRun } from '../../../src/run/start-run.ts';
import { ScriptedModelServer, type RespondRequest } from '../../../src/testing/index.ts';
import { call } from '../../helpers/script-turns.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';
import { callsSoFar } from './resume-fixture.ts';
import { modelPreamble } from '../../helpers/model-preamble.ts';

const AGENT = 'agent:fetch/fetcher';
const INTERRUPTED = {
  status: 'error',
  error: 'interrupted by a restart; call it again if it is still needed',
};

const PROJECT = `
${modelPreamble()}agent "fetcher" {
  model       = models.main.gpt_4o_mini
  personality = "You fetch pages."
  tools       = [builtins.http.get]
}
mission "pages" {
  commander {
    model = models.main.gpt_4o_mini
  }
  agents = [agents.fetcher]
  task "fetch" {
    objective = "Fetch pages a and b"
  }
}
`;

/** The page server: `early` is answered at once, `late` once `release` is called. */
interface PageServer {
  url: string;
  early: string;
  requests: string[];
  release(): void;
  close(): Promise<void>;
}

let pages: PageServer;
let model: ScriptedModelServer;
let dir: string;
let config: Config;

async function startPages(): Promise<PageServer> {
  let held: ServerResponse | undefined;
  let released = false;
  const answer = (response: ServerResponse, path: string): void => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`page ${path}`);
  };
  const state = { early: '/b', requests: [] as string[] };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '';
    state.requests.push(path);
    if (path === state.early || released) answer(response, path);
    else held = response;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get early() {
      return state.early;
    },
    set early(path: string) {
      state.early = path;
      released = false;
    },
    get requests() {
      return state.requests;
    },
    release: () => {
      released = true;
      const late = state.early === '/a' ? '/b' : '/a';
      if (held !== undefined) answer(held, late);
      held = undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The commander delegates to the fetcher, whose one reply calls http.get for /a, then /b. */
function respond(request: RespondRequest) {
  if (request.actor === AGENT) {
    return callsSoFar(request.body) === 0
      ? {
          toolCalls: ['/a', '/b'].map((path) => ({
            name: 'builtins_http_get',
            arguments: { url: `${pages.url}${path}` },
          })),
          usage: { input: 50, output: 8 },
        }
      : { text: 'Fetched.', usage: { input: 60, output: 2 } };
  }
  return [
    call('set_subtasks', { subtasks: ['Fetch'] }),
    call('call_agent', { name: 'fetcher', task: 'Fetch pages a and b' }),
    call('complete_subtask', {}),
    call('task_complete', { summary: 'Fetched' }),
  ][callsSoFar(request.body)];
}

beforeAll(async () => {
  pages = await startPages();
  model = await ScriptedModelServer.start({ respond });
  dir = await temporaryDirectory('completion-order');
  await writeFile(join(dir, 'main.hcl'), PROJECT);
  config = await loadProject(dir, {
    vars: { api_key: 'test-key', base_url: model.baseUrl('openai') },
    env: {},
  });
});

afterAll(async () => {
  await model.close();
  await pages.close();
});

async function run(
  options: Partial<RunOptions>,
): Promise<{ result: RunResult; events: MissionEvent[] }> {
  const events: MissionEvent[] = [];
  const handle = startRun({
    config,
    mission: 'pages',
    inputs: {},
    stateDir: join(dir, '.sortie'),
    ...options,
    subscribers: [(event) => events.push(event), ...(options.subscribers ?? [])],
  });
  return { result: await handle.done, events };
}

/** The path a `tool.completed` or `tool.called` of the fetcher is about, by its call id. */
function pathsByCall(events: MissionEvent[]): Map<string, string> {
  const paths = new Map<string, string>();
  for (const event of events) {
    if (event.type === 'tool.called' && event.actor === AGENT) {
      paths.set(event.callId, new URL(JSON.parse(event.arguments).url as string).pathname);
    }
  }
  return paths;
}

/** The fetcher's tool results of the first request it sent after `before` requests, in order. */
function resultsSent(before: number): unknown[] {
  const request = model.requests.slice(before).find((candidate) => candidate.actor === AGENT);
  const input = (request?.body as { input: Array<{ type?: string; output?: unknown }> }).input;
  return input
    .filter((item) => item.type === 'function_call_output')
    .map((item) => JSON.parse(String(item.output)) as unknown);
}

function pageResult(path: string): unknown {
  return { status: 200, content_type: 'text/plain', body: `page ${path}` };
}

describe.each([
  ['the second call finishes first', '/b', '/a'],
  ['the first call finishes first', '/a', '/b'],
])('when %s', (_, early, late) => {
  let complete: MissionEvent[];
  let cut: MissionEvent[];
  const runId = `baseline${early.replace('/', '-')}`;

  beforeAll(async () => {
    pages.early = early;
    const baseline = await run({
      runId,
      subscribers: [
        (event) => {
          // The late call is answered only once the early one's completion is journaled.
          if (event.type === 'tool.completed' && event.actor === AGENT) pages.release();
        },
      ],
    });
    expect(baseline.result.status).toBe('succeeded');
    complete = baseline.events.filter((event) => event.type !== 'model.delta');
    const first = complete.findIndex(
      (event) => event.type === 'tool.completed' && event.actor === AGENT,
    );
    cut = complete.slice(0, first + 1);
  });

  it('journals tool.completed in completion order, and sends the results in call order', () => {
    const paths = pathsByCall(complete);
    const completed = complete.flatMap((event) =>
      event.type === 'tool.completed' && event.actor === AGENT ? [paths.get(event.callId)] : [],
    );
    expect(completed).toEqual([early, late]);
    const answered = complete.find(
      (event) =>
        event.type === 'message.appended' &&
        event.conversation === AGENT &&
        JSON.stringify(event.message).includes('tool_result'),
    );
    const parts = (answered as { message: { parts: Array<{ callId: string }> } }).message.parts;
    expect(parts.map((part) => paths.get(part.callId))).toEqual(['/a', '/b']);
  });

  it('resumed after the first completion: its result is kept, the other is interrupted', async () => {
    const before = model.requests.length;
    const fetched = pages.requests.length;
    const { result } = await run({ resume: restoreFromJournal(runId, cut) });
    expect(result.status).toBe('succeeded');
    const expected = { [early]: pageResult(early), [late]: INTERRUPTED };
    expect(resultsSent(before)).toEqual([expected['/a'], expected['/b']]);
    expect(pages.requests.slice(fetched)).toEqual([]);
  });

  it('forked at the first completion: the same as a resume there', async () => {
    const point = cut.at(-1) as MissionEvent;
    expect(isForkPoint(point)).toBe(true);
    const forkId = `fork${early.replace('/', '-')}`;
    const forked = forkEvents(complete, {
      parentRunId: runId,
      runId: forkId,
      point: point as Parameters<typeof forkEvents>[1]['point'],
    });
    const before = model.requests.length;
    const fetched = pages.requests.length;
    const { result } = await run({ resume: restoreFromJournal(forkId, forked) });
    expect(result.status).toBe('succeeded');
    const expected = { [early]: pageResult(early), [late]: INTERRUPTED };
    expect(resultsSent(before)).toEqual([expected['/a'], expected['/b']]);
    expect(pages.requests.slice(fetched)).toEqual([]);
  });
});
