/**
 * `sortie chat AGENT` through the real CLI against the scripted model server: one turn with
 * `--task` (an HTTP tool call, the reply on stdout, the turn journaled as a run of kind chat),
 * two turns from stdin with `--plain` (the second request holds the first exchange), `show`
 * and `replay` of the chat's run, a `--json` turn's fields, and an unknown agent.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  cleanUpAll,
  CLI_ENV,
  jsonLines,
  reply,
  ROOT,
  runDirs,
  sortie,
  startHttpServer,
  startModelServer,
  writeProject,
  type CliResult,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

afterEach(cleanUpAll);

const FETCHER = 'agent:chat/fetcher';

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
  agents = [agents.fetcher]
  task "fetch" {
    objective = "Fetch the users"
  }
}
`;

/** `node bin/sortie.js ARGS` with `input` written to its stdin (then closed). */
function sortieWithInput(
  args: string[],
  input: string,
  env: Record<string, string | undefined>,
): Promise<CliResult> {
  const child = spawn(process.execPath, ['bin/sortie.js', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/** The texts of a request's input messages (OpenAI Responses), role first. */
function inputTexts(body: unknown): string[] {
  const input = (body as { input: Array<Record<string, unknown>> }).input;
  return input.flatMap((item) => {
    if (item.type === 'function_call') return [`call ${String(item.name)}`];
    if (item.type === 'function_call_output') return [`result ${String(item.output)}`];
    const content = item.content as string | Array<{ text?: string }>;
    const text =
      typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');
    return [`${String(item.role)}: ${text}`];
  });
}

describe('sortie chat (CLI)', () => {
  it('runs one turn with --task: the tool call, the reply on stdout, a journaled chat run', async () => {
    const api = await startHttpServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('[{"name":"ada"},{"name":"alan"}]');
    });
    const server = await startModelServer([
      call(FETCHER, 'builtins_http_get', { url: `${api.url}/users` }),
      reply(FETCHER, 'There are 2 users: ada and alan.'),
    ]);
    const dir = await writeProject(HCL);
    const home = await temporaryDirectory('chat-home');
    const stateDir = join(home, 'state');
    const env = { SORTIE_HOME: home };
    const result = await sortieAsyncIn(env, [
      'chat',
      'fetcher',
      dir,
      '--task',
      'How many users are there?',
      '--var',
      'api_key=sk-test-chat',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--state-dir',
      stateDir,
    ]);
    expect(result.stderr).not.toContain('Error');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('There are 2 users: ada and alan.\n');
    expect(api.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /users',
    ]);

    const [runDir] = await runDirs(stateDir);
    const events = jsonLines(await readFile(join(runDir!, 'journal.jsonl'), 'utf8'));
    const kinds = events
      .filter((event) =>
        ['run.started', 'task.started', 'tool.called', 'task.succeeded', 'run.finished'].includes(
          String(event.type),
        ),
      )
      .map((event) => `${String(event.type)} ${String(event.actor)}`);
    expect(kinds).toEqual([
      'run.started run',
      'task.started task:chat',
      `tool.called ${FETCHER}`,
      'task.succeeded task:chat',
      'run.finished run',
    ]);
    const finished = events.find((event) => event.type === 'run.finished');
    expect(finished?.outcome).toBe('succeeded');
    const index = jsonLines(await readFile(join(home, 'runs.jsonl'), 'utf8'));
    expect(index.map((entry) => [entry.mission, entry.kind])).toEqual([['chat', 'chat']]);
  }, 180_000);

  it('keeps the conversation over two lines of --plain, and show and replay read the chat', async () => {
    const server = await startModelServer([
      reply(FETCHER, 'Ada and Alan.'),
      reply(FETCHER, 'Alan came second.'),
    ]);
    const dir = await writeProject(HCL);
    const home = await temporaryDirectory('chat-home');
    const stateDir = join(home, 'state');
    const env = { SORTIE_HOME: home };
    const variables = [
      '--var',
      'api_key=sk-test-chat',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
    ];
    const chat = await sortieWithInput(
      ['chat', 'fetcher', dir, '--plain', ...variables, '--state-dir', stateDir],
      'Who are the users?\nWho came second?\n',
      env,
    );
    expect(chat.status).toBe(0);
    expect(chat.stdout).toBe('Ada and Alan.\nAlan came second.\n');
    const requests = server.requests.filter((request) => request.actor === FETCHER);
    expect(requests.map((request) => inputTexts(request.body))).toEqual([
      ['user: Who are the users?'],
      ['user: Who are the users?', 'assistant: Ada and Alan.', 'user: Who came second?'],
    ]);

    const [runDir] = await runDirs(stateDir);
    const runId = runDir!.split('/').at(-1)!;
    const show = await sortieWithInput(['show', runId, '--state-dir', stateDir], '', env);
    expect(show.status).toBe(0);
    expect(show.stdout.split('\n')[0]).toBe(`run ${runId} · chat · succeeded`);
    expect(show.stdout).toContain('    output   "Alan came second."');
    const replay = await sortieWithInput(
      ['replay', runId, '--plain', '--state-dir', stateDir],
      '',
      env,
    );
    expect(replay.status).toBe(0);
    expect(replay.stdout).toContain('task:chat  succeeded: Alan came second.');
  }, 300_000);

  it('prints a --json chat turn: the chat, the tool call and the cost fields, key by key', async () => {
    const api = await startHttpServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('[{"name":"ada"}]');
    });
    const usage = { input: 100, output: 20 };
    const server = await startModelServer([
      { ...call(FETCHER, 'builtins_http_get', { url: `${api.url}/users` }), usage },
      { ...reply(FETCHER, 'There is 1 user: ada.'), usage },
    ]);
    const dir = await writeProject(HCL);
    const home = await temporaryDirectory('chat-home');
    const result = await sortieAsyncIn({ SORTIE_HOME: home }, [
      'chat',
      'fetcher',
      dir,
      '--json',
      '--task',
      'How many users are there?',
      '--var',
      'api_key=sk-test-chat',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--state-dir',
      join(home, 'state'),
    ]);
    expect(result.status).toBe(0);
    const events = jsonLines(result.stdout);
    const first = (type: string) => events.find((event) => event.type === type)!;
    const keys = (type: string) => Object.keys(first(type)).sort();
    const envelope = ['actor', 'runId', 'seq', 'time', 'type'];
    const withEnvelope = (fields: string[]) => [...envelope, ...fields].sort();
    expect(keys('run.started')).toEqual(withEnvelope(['chat', 'mission', 'resumed']));
    expect(first('run.started').chat).toEqual({
      agent: 'fetcher',
      task: 'How many users are there?',
    });
    expect(keys('tool.called')).toEqual(withEnvelope(['arguments', 'callId', 'tool']));
    expect(first('tool.called')).toMatchObject({ actor: FETCHER, tool: 'builtins_http_get' });
    expect(keys('tool.completed')).toEqual(
      withEnvelope(['callId', 'durationMs', 'isError', 'result', 'tool']),
    );
    expect(keys('model.response')).toEqual(
      withEnvelope([
        'costPico',
        'durationMs',
        'message',
        'model',
        'requestId',
        'stopReason',
        'unpriced',
        'usage',
      ]),
    );
    const responses = events.filter((event) => event.type === 'model.response');
    expect(responses.map((event) => event.usage)).toEqual([
      { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    ]);
    expect(keys('run.finished')).toEqual(
      withEnvelope(['costPico', 'durationMs', 'exitCode', 'outcome', 'unpriced', 'usage']),
    );
    const spent = responses.reduce((sum, event) => sum + BigInt(String(event.costPico)), 0n);
    expect(first('run.finished').costPico).toBe(String(spent));
  }, 180_000);

  it('refuses an unknown agent with the closest name (exit 2)', async () => {
    const dir = await writeProject(HCL);
    const result = await sortie(['chat', 'fetchr', dir, '--task', 'hello']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('agent "fetchr" does not exist (did you mean "fetcher"?)');
    expect(result.stderr).not.toContain('    at ');
  }, 120_000);
});

function sortieAsyncIn(env: Record<string, string | undefined>, args: string[]) {
  return sortieWithInput(args, '', env);
}
