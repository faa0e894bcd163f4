/**
 * Through the real CLI: the four HTTP calls of one agent reply reach their server together (it
 * answers none until it has all four), and with `parallel_tool_calls = false` one at a time,
 * the provider being asked for one call per reply too.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanUpAll,
  delegatingTask,
  jsonLines,
  reply,
  sortie,
  startHttpServer,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

const AGENT = 'agent:fetch/fetcher';
const PAGES = [1, 2, 3, 4];

function project(parallel: string): string {
  return `
agent "fetcher" {
  model       = MODEL
  personality = "You fetch pages over HTTP."
  tools       = [builtins.http.get]
  ${parallel}
}

mission "pages" {
  commander {
    model = MODEL
  }
  agents = [agents.fetcher]
  task "fetch" {
    objective = "Fetch four pages"
  }
}
`;
}

/** A page server that answers each request with its path once `ready` says so. */
async function pageServer(ready: (waiting: number) => boolean) {
  const waiting: Array<{ path: string; response: ServerResponse }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const api = await startHttpServer((request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    waiting.push({ path: request.url ?? '', response });
    if (!ready(waiting.length)) return;
    for (const held of waiting.splice(0)) {
      inFlight -= 1;
      held.response.writeHead(200, { 'content-type': 'text/plain' });
      held.response.end(`page ${held.path}`);
    }
  });
  return { api, maxInFlight: () => maxInFlight };
}

/** What the HTTP tool gives back for one page. */
function pageResult(page: number): string {
  return JSON.stringify({ status: 200, content_type: 'text/plain', body: `page /page/${page}` });
}

async function runFetcher(parallel: string, ready: (waiting: number) => boolean) {
  const pages = await pageServer(ready);
  const fourCalls = {
    match: { actor: AGENT },
    toolCalls: PAGES.map((page) => ({
      name: 'builtins_http_get',
      arguments: { url: `${pages.api.url}/page/${page}` },
    })),
  };
  const server = await startModelServer(
    delegatingTask('fetch', 'fetcher', [fourCalls, reply(AGENT, 'Fetched four pages.')], 'Done'),
  );
  const run = await sortie([
    'run',
    await writeProject(project(parallel)),
    '--json',
    '--var',
    'api_key=sk-test',
    '--var',
    `base_url=${server.baseUrl('openai')}`,
    '--state-dir',
    join(await temporaryDirectory('state'), 'state'),
  ]);
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  server.assertDone();
  const results = jsonLines(run.stdout).flatMap((event) =>
    event.type === 'message.appended' && event.actor === AGENT
      ? (event.message as { parts: Array<{ type: string; content?: unknown }> }).parts
      : [],
  );
  const agentBodies = server.requests
    .filter((request) => request.actor === AGENT)
    .map((request) => request.body as Record<string, unknown>);
  return { pages, results, agentBodies };
}

describe('the tool calls of one agent reply (CLI)', () => {
  it('reach the tool together: the server holds each request until it has all four', async () => {
    const { pages, results, agentBodies } = await runFetcher('', (waiting) => waiting === 4);
    expect(pages.maxInFlight()).toBe(4);
    // The results go back in call order.
    expect(
      results.filter((part) => part.type === 'tool_result').map((part) => part.content),
    ).toEqual(PAGES.map(pageResult));
    expect(agentBodies.map((body) => body.parallel_tool_calls)).toEqual([undefined, undefined]);
  }, 120_000);

  it('reach the tool one at a time with parallel_tool_calls = false, which the provider is sent', async () => {
    const { pages, results, agentBodies } = await runFetcher(
      'parallel_tool_calls = false',
      () => true,
    );
    expect(pages.maxInFlight()).toBe(1);
    expect(
      results.filter((part) => part.type === 'tool_result').map((part) => part.content),
    ).toEqual(PAGES.map(pageResult));
    expect(agentBodies.map((body) => body.parallel_tool_calls)).toEqual([false, false]);
  }, 120_000);
});
