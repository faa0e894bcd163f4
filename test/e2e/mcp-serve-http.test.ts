/**
 * `sortie serve` with the reference docs' `mcp_host` block (test/fixtures/config/mcp-host):
 * the SDK's client over Streamable HTTP against the built CLI, runs answered by the scripted
 * model server. The endpoint serves the stdio server's tools, runs a mission with typed inputs
 * with progress through serve's run manager (max_parallel holds), puts an agent's question to
 * the client as an elicitation, and serves the run as a resource; it refuses a missing or
 * wrong secret, a Host or Origin that is not its own, and an oversized body.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtCli } from './built-cli.ts';
import { sortieAsync } from './cli-child.ts';
import {
  connectHttp,
  expectQuestionElicited,
  PROJECT_TOOLS,
  resultJson,
  startMcpHost,
  type TestClient,
} from './mcp-serve-harness.ts';
import {
  api,
  greeting,
  PROTECTED_VALUE,
  respondToServed,
  serveProject,
  stopServe,
  type Served,
} from './serve-harness.ts';

const SECRET = 'mcp-host-secret-8675309';
const SECRET_MESSAGE =
  "send the mcp_host block's secret as Authorization: Bearer <secret> or ?token=<secret>";

let model: ScriptedModelServer;
let stateDir: string;
let served: Served;
let endpoint: string;
let connected: TestClient;
/** Lets the held run of `greet` (name "Held") go on. */
let release: () => void = () => undefined;

beforeAll(async () => {
  await builtCli();
  const released = new Promise<void>((resolve) => (release = resolve));
  model = await ScriptedModelServer.start({
    respond: (request) => {
      const turn = respondToServed(request);
      const held = JSON.stringify(request.body).includes('Greet Held');
      return turn !== undefined && held ? { ...turn, heldUntil: released } : turn;
    },
  });
  let project: string;
  ({ project, stateDir } = await serveProject());
  ({ served, endpoint } = await startMcpHost(project, stateDir, model, SECRET));
  connected = await connectHttp(endpoint, SECRET, () => ({
    action: 'accept',
    content: { answer: 'us' },
  }));
}, 240_000);

afterAll(async () => {
  release();
  await connected?.client.close();
  if (served !== undefined) await stopServe(served);
  await model?.close();
});

/** A raw request to the endpoint with node:http, which sends any Host header it is given. */
function raw(
  url: string,
  headers: Record<string, string>,
  body = '',
): Promise<{ status: number; headers: Record<string, unknown>; body: unknown }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: JSON.parse(text),
        }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** An MCP initialize request's headers and body, as a client sends them. */
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
});

describe('sortie serve with mcp_host', () => {
  it('starts the endpoint of the reference docs example and lists the stdio server’s tools', async () => {
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(endpoint).not.toBe(`${served.url}/mcp`);
    const { tools } = await connected.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(PROJECT_TOOLS);
    const greet = tools.find((tool) => tool.name === 'mission_greet');
    expect(Object.keys(greet?.inputSchema.properties ?? {})).toEqual([
      'name',
      'times',
      'token',
      'note',
    ]);
  });

  it('runs a mission with typed inputs to its result, with progress, as an ordinary served run', async () => {
    const progress: Array<{ progress: number; message?: string }> = [];
    const result = await connected.client.callTool(
      { name: 'mission_greet', arguments: { name: 'Ada', times: 2, token: PROTECTED_VALUE } },
      undefined,
      { onprogress: (notification) => progress.push(notification) },
    );
    const details = resultJson(result);
    const runId = String(details.run_id);
    expect(result.isError).toBeUndefined();
    expect(details).toMatchObject({ mission: 'greet', status: 'succeeded' });
    expect(details.tasks).toEqual([
      expect.objectContaining({
        name: 'hello',
        status: 'succeeded',
        summary: 'Greeted Ada',
        output: { text: greeting('Ada').replace(PROTECTED_VALUE, '••••') },
      }),
    ]);
    expect(progress[0]).toEqual({
      progress: 1,
      message: `run  started run ${runId} (mission greet)`,
    });
    expect(progress.map((notification) => notification.message)).toContain(
      'task:hello  succeeded: Greeted Ada',
    );
    const resource = await connected.client.readResource({ uri: `sortie://runs/${runId}` });
    const [document] = resource.contents;
    expect(document !== undefined && 'text' in document ? JSON.parse(document.text) : null).toEqual(
      details,
    );
    // Served through serve's run manager: its log line, its API, and `sortie show` see the run.
    await served.line(new RegExp(`^run ${runId} started · mission greet · mcp$`));
    expect((await api(served, 'GET', `/api/runs/${runId}`)).body).toMatchObject({
      run_id: runId,
      status: 'succeeded',
    });
    const show = await sortieAsync(['show', runId, '--state-dir', stateDir]);
    expect(show.status).toBe(0);
    expect(show.stdout).toContain('Greeted Ada');
    const everything = JSON.stringify([result, progress, resource, served.lines, served.stderr()]);
    expect(everything).not.toContain(PROTECTED_VALUE);
    expect(everything).not.toContain(SECRET);
  });

  it('puts an agent question to the client as an elicitation', async () => {
    await expectQuestionElicited(connected, model, 'us');
  });

  it('queues a run past the mission’s max_parallel, as every source of runs does', async () => {
    const start = async (name: string) =>
      resultJson(
        await connected.client.callTool({
          name: 'run_mission',
          arguments: { name: 'greet', inputs: { name } },
        }),
      );
    const first = await start('Held');
    const second = await start('Next');
    expect([first.status, second.status]).toEqual(['running', 'queued']);
    release();
    await served.line(new RegExp(`^run ${String(first.run_id)} succeeded`));
    await served.line(new RegExp(`^run ${String(second.run_id)} succeeded`));
  });

  it('takes the secret as ?token= too', async () => {
    const byQuery = await connectHttp(`${endpoint}?token=${SECRET}`, undefined, undefined);
    try {
      expect(
        (await byQuery.client.callTool({ name: 'list_version', arguments: {} })).isError,
      ).toBeUndefined();
    } finally {
      await byQuery.client.close();
    }
  });
});

describe('the mcp_host endpoint refuses', () => {
  it('a request without the secret or with a wrong one: 401 and a JSON error', async () => {
    const refusal = { error: { code: 'unauthorized', message: SECRET_MESSAGE } };
    for (const [url, headers] of [
      [endpoint, {}],
      [endpoint, { authorization: 'Bearer not-the-secret' }],
      [`${endpoint}?token=not-the-secret`, {}],
    ] as const) {
      const answer = await raw(url, { ...MCP_HEADERS, ...headers }, INITIALIZE);
      expect([answer.status, answer.headers['www-authenticate'], answer.body]).toEqual([
        401,
        'Bearer',
        refusal,
      ]);
    }
  });

  it('a Host or an Origin that is not the server’s own: 403', async () => {
    const port = new URL(endpoint).port;
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${SECRET}` };
    const rebound = await raw(
      endpoint,
      { ...headers, host: `rebound.example:${port}` },
      INITIALIZE,
    );
    expect([rebound.status, rebound.body]).toEqual([
      403,
      {
        error: {
          code: 'forbidden_host',
          message: 'the Host header does not name this server; use its own address',
        },
      },
    ]);
    const page = await raw(endpoint, { ...headers, origin: 'http://rebound.example' }, INITIALIZE);
    expect([page.status, page.body]).toEqual([
      403,
      {
        error: {
          code: 'forbidden_origin',
          message: 'requests from web pages of other sites are refused',
        },
      },
    ]);
  });

  it('a body over 1 MiB: 413', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(1 << 20) },
    });
    const answer = await raw(endpoint, { ...MCP_HEADERS, authorization: `Bearer ${SECRET}` }, big);
    expect([answer.status, answer.body]).toEqual([
      413,
      {
        jsonrpc: '2.0',
        error: {
          code: -32000,
          message: 'Payload Too Large: Request body must not exceed 1048576 bytes',
        },
        id: null,
      },
    ]);
  });
});
