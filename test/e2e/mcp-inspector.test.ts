/**
 * The MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`, a devDependency, its bin in
 * node_modules/.bin) as a client sortie's tests did not write: against `sortie mcp serve` over
 * stdio (the Inspector starts the built CLI) and against `sortie serve`'s mcp_host over
 * Streamable HTTP. It lists the tools, calls a mission's tool with typed inputs, and reads the
 * run's resource. It declares no elicitation, so a question of its run is answered as in a
 * headless run (the SDK client's tests cover elicitation).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { CLI_ENV, ROOT, type ChildResult } from './cli-child.ts';
import { outputsOf } from './cli-human-harness.ts';
import { PROJECT_TOOLS, serveArgs, startMcpHost } from './mcp-serve-harness.ts';
import {
  greeting,
  serveProject,
  startServedModel,
  stopServe,
  type Served,
} from './serve-harness.ts';

const INSPECTOR = join(ROOT, 'node_modules/.bin/mcp-inspector-cli');
const SECRET = 'inspector-secret-4242';

let model: ScriptedModelServer;
let project: string;
let stateDir: string;
let sortie: string[];
let served: Served;
let endpoint: string;

beforeAll(async () => {
  sortie = builtBin(await builtCli());
  model = await startServedModel();
  ({ project, stateDir } = await serveProject());
  ({ served, endpoint } = await startMcpHost(project, stateDir, model, SECRET));
}, 240_000);

afterAll(async () => {
  if (served !== undefined) await stopServe(served);
  await model?.close();
});

/**
 * Runs the Inspector's CLI mode. Its working directory is test/: the Inspector finds its own
 * package.json through `../package.json` of the working directory, so it needs one there.
 */
function inspector(args: string[]): Promise<ChildResult> {
  const child = spawn(INSPECTOR, ['--cli', ...args], {
    cwd: join(ROOT, 'test'),
    env: { ...process.env, ...CLI_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/** The Inspector's answer, parsed; fails the test with what it printed when it failed. */
async function answer(args: string[]): Promise<Record<string, unknown>> {
  const result = await inspector(args);
  expect({ status: result.status, stderr: result.status === 0 ? '' : result.stderr }).toEqual({
    status: 0,
    stderr: '',
  });
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** The JSON of a tool result's or a resource's first text. */
function firstText(answered: Record<string, unknown>, key: 'content' | 'contents'): unknown {
  const blocks = answered[key] as Array<{ text?: string }>;
  return JSON.parse(blocks[0]?.text ?? 'null');
}

/**
 * Lists, runs `greet` for `name` twice with a typed number, and reads the run's resource.
 * `target` comes last: the Inspector drops the `--` before a stdio command, so each method's
 * options end with a single-valued one (`--tool-arg` would take the command's words as pairs).
 */
async function listRunAndRead(target: string[], name: string): Promise<void> {
  const listed = await answer(['--method', 'tools/list', ...target]);
  expect((listed.tools as Array<{ name: string }>).map((tool) => tool.name)).toEqual(PROJECT_TOOLS);
  const called = await answer([
    ...['--method', 'tools/call', '--tool-arg', `name=${name}`, '--tool-arg', 'times=2'],
    ...['--tool-name', 'mission_greet', ...target],
  ]);
  expect(called.isError).toBeUndefined();
  const details = firstText(called, 'content') as Record<string, unknown>;
  expect(details).toMatchObject({ mission: 'greet', status: 'succeeded' });
  expect(details.tasks).toEqual([
    expect.objectContaining({
      summary: `Greeted ${name}`,
      // No token given: the commander's text holds no protected value of this run.
      output: { text: greeting(name) },
    }),
  ]);
  // `times` went as a number: the mission's schema would refuse the text "2".
  const commander = model.requests.filter((request) => request.actor === 'commander:hello');
  expect(JSON.stringify(commander.at(-1)?.body)).toContain(`Greet ${name} 2 times`);
  const uri = `sortie://runs/${String(details.run_id)}`;
  const read = await answer(['--method', 'resources/read', '--uri', uri, ...target]);
  expect(firstText(read, 'contents')).toEqual(details);
}

/** The endpoint as the Inspector's target, with the secret when given. */
function httpTarget(secret?: string): string[] {
  const header = secret === undefined ? [] : ['--header', `Authorization: Bearer ${secret}`];
  return [endpoint, '--transport', 'http', ...header];
}

describe('the MCP Inspector CLI as a client', () => {
  it('over stdio: lists the tools, runs a mission with typed inputs, reads its run', async () => {
    const command = ['--', process.execPath, ...sortie, 'mcp', 'serve'];
    await listRunAndRead([...command, ...serveArgs(project, stateDir, model)], 'Ida');
  });

  it('over HTTP with the secret: lists the tools, runs a mission with typed inputs, reads its run', async () => {
    const target = httpTarget(SECRET);
    await listRunAndRead(target, 'Hal');
    // It declares no elicitation: its run's question is answered as in a headless run.
    const asked = await answer(['--method', 'tools/call', '--tool-name', 'mission_ask', ...target]);
    expect(firstText(asked, 'content')).toMatchObject({ mission: 'ask', status: 'succeeded' });
    const asker = model.requests.filter((request) => request.actor === 'agent:decide/asker');
    expect(outputsOf(asker.at(-1)?.body)).toEqual(['[no human available]']);
  });

  it('over HTTP without the secret: refused', async () => {
    const refused = await inspector(['--method', 'tools/list', ...httpTarget()]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(
      'Error POSTing to endpoint: {"error":{"code":"unauthorized","message":"send the mcp_host ' +
        'block\'s secret as Authorization: Bearer <secret> or ?token=<secret>"}}',
    );
  });
});
