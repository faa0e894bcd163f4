/**
 * `sortie attach` on a served run, with the built CLI and real HTTP: `--plain` prints the
 * run's log to its end and `--json` its events; a wrong token, an unknown run or no server is
 * one line on stderr and exit 2. The debugger route the TUI drives answers clear JSON errors.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { runChild } from './cli-child.ts';
import {
  api,
  readEvents,
  serveFreshProject,
  startServedModel,
  stopServe,
  type Served,
} from './serve-harness.ts';

const TOKEN = 'tok-attach-2718';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let model: ScriptedModelServer;
let served: Served;

beforeAll(async () => {
  await builtCli();
  model = await startServedModel();
  ({ served } = await serveFreshProject(model, [], { SORTIE_SERVE_TOKEN: TOKEN }));
}, 240_000);

afterAll(async () => {
  if (served !== undefined) await stopServe(served);
  await model?.close();
});

async function attach(args: string[], env: Record<string, string | undefined> = {}) {
  return runChild(process.execPath, [...builtBin(await builtCli()), 'attach', ...args], env);
}

async function startGreet(): Promise<string> {
  const posted = await api(served, 'POST', '/api/missions/greet/runs', {
    body: { inputs: { name: 'Cy' } },
    headers: AUTH,
  });
  expect(posted.status).toBe(202);
  return String(posted.body.run_id);
}

/** The log without its clock: the elapsed time opening each line and the requests' durations. */
function timeless(log: string): string[] {
  return log
    .trimEnd()
    .split('\n')
    .map((line) => line.replace(/^\d\d:\d\d\.\d /, '').replace(/ · \d+(\.\d+)?(ms|s)\b/g, ' · T'));
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sortie attach --plain and --json', () => {
  it("prints a served run's line log to its end, with the summary, and exits 0", async () => {
    const runId = await startGreet();
    const result = await attach([runId, '--server', served.url, '--plain'], {
      SORTIE_SERVE_TOKEN: TOKEN,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const text = '{"text":"Hello Cy, your token is tok-PROTECTED-4711"}';
    const request = 'commander:hello  model main.gpt_4o_mini: 100 in, 10 out · <$0.0001 · T';
    expect(timeless(result.stdout)).toEqual([
      `run  started run ${runId} (mission greet)`,
      'mission:greet  started · inputs {"name":"Cy","times":1,"token":"••••"}',
      'task:hello  started',
      request,
      'commander:hello  → set_subtasks ["Greet"]',
      'commander:hello  plan 0/1 done · now: Greet',
      request,
      'commander:hello  → complete_subtask',
      'commander:hello  plan 1/1 done',
      request,
      `commander:hello  → submit_output ${text}`,
      `commander:hello  output submitted: ${text}`,
      request,
      'commander:hello  → task_complete Greeted Cy',
      'task:hello  succeeded: Greeted Cy',
      'mission:greet  succeeded · 1 task · 440 tokens · $0.0001',
      'run  succeeded · exit 0 · T · $0.0001',
      'tasks:',
      '  hello  succeeded  Greeted Cy',
      'outputs:',
      `  hello  ${text}`,
      'costs:',
      '  main.gpt_4o_mini  4 requests  440 tokens  $0.0001',
      '  total             4 requests  440 tokens  $0.0001',
    ]);
  }, 60_000);

  it('prints the events with --json as the event stream carries them (--token given)', async () => {
    const runId = await startGreet();
    const result = await attach([runId, '--server', served.url, '--json', '--token', TOKEN]);
    expect(result.status).toBe(0);
    const streamed = await readEvents(served, runId, () => false, AUTH);
    expect(result.stdout).toBe(streamed.map(({ event }) => `${JSON.stringify(event)}\n`).join(''));
    expect(streamed.at(-1)?.event).toMatchObject({ type: 'run.finished', outcome: 'succeeded' });
  }, 60_000);

  it('says in one line, exit 2, when the token is wrong, the run unknown or no server listens', async () => {
    const runId = await startGreet();
    const wrong = await attach([runId, '--server', served.url, '--plain', '--token', 'nope']);
    expect(wrong).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: the sortie server at ${served.url} wants its token: give it with --token or SORTIE_SERVE_TOKEN\n`,
    });
    const unknown = await attach(['20260101T000000000Z-abcdef', '--server', served.url], {
      SORTIE_SERVE_TOKEN: TOKEN,
    });
    expect(unknown).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: the sortie server at ${served.url}: no run 20260101T000000000Z-abcdef in this state directory\n`,
    });
    const port = await closedPort();
    const down = await attach([runId, '--server', `http://127.0.0.1:${port}`]);
    expect(down).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: cannot reach the sortie server at http://127.0.0.1:${port} (connection refused): is \`sortie serve\` running there?\n`,
    });
    const notUrl = await attach([runId, '--server', 'localhost:7700']);
    expect(notUrl.stderr).toBe(
      'error: --server localhost:7700: expected an http:// or https:// URL\n',
    );
    expect(notUrl.status).toBe(2);
  }, 60_000);
});

describe('the debugger route', () => {
  it('answers clear JSON errors: a run not running here, an unknown action, no token', async () => {
    const control = (runId: string, body: unknown) =>
      api(served, 'POST', `/api/runs/${runId}/control`, { body, headers: AUTH });
    const runId = await startGreet();
    await readEvents(served, runId, (event) => event.type === 'run.finished', AUTH);
    await served.line(new RegExp(`^run ${runId} succeeded`));
    expect(await control(runId, { action: 'pause' })).toMatchObject({
      status: 404,
      body: {
        error: { code: 'not_running', message: `run ${runId} is not running on this server` },
      },
    });
    const bad = await control(runId, { action: 'jump' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      error: {
        code: 'invalid_control',
        message:
          'send {"action": A} with A one of pause, step, continue, break, unbreak (break and unbreak also take "breakpoint")',
      },
    });
    const unauthorized = await api(served, 'GET', `/api/runs/${runId}/control`);
    expect(unauthorized.status).toBe(401);
  }, 60_000);

  it('names every breakpoint form when a running run is sent none or a bad one', async () => {
    const posted = await api(served, 'POST', '/api/missions/ask/runs', { body: {}, headers: AUTH });
    const runId = String(posted.body.run_id);
    await readEvents(served, runId, (event) => event.type === 'human.asked', AUTH);
    const control = (body: unknown) =>
      api(served, 'POST', `/api/runs/${runId}/control`, { body, headers: AUTH });
    const forms = 'tool:NAME, actor:ID, model, route, error, stall, loop, cost:USD or tokens:N';
    expect((await control({ action: 'break' })).body).toEqual({
      error: {
        code: 'invalid_breakpoint',
        message: `send "breakpoint" as --break takes it: ${forms}`,
      },
    });
    expect((await control({ action: 'break', breakpoint: 'cost:lots' })).body).toEqual({
      error: { code: 'invalid_breakpoint', message: `bad breakpoint "cost:lots": use ${forms}` },
    });
    expect((await control({ action: 'break', breakpoint: 'cost:0.5' })).body).toMatchObject({
      breakpoints: ['cost:0.50'],
    });
    const cancelled = await api(served, 'POST', `/api/runs/${runId}/cancel`, { headers: AUTH });
    expect(cancelled.status).toBe(202);
    await served.line(new RegExp(`^run ${runId} cancelled`));
  }, 60_000);
});
