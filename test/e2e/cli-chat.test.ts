/**
 * `sortie chat AGENT` through the real CLI against the scripted model server: one turn with
 * `--task` (an HTTP tool call, the reply on stdout, the turn journaled as a run of kind chat),
 * two turns from stdin with `--plain` (the second request holds the first exchange), `show`
 * and `replay` of the chat's run, a `--json` turn's fields, and an unknown agent.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  cleanUpAll,
  jsonLines,
  reply,
  runDirs,
  sortie,
  startHttpServer,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { CHAT_HCL, FETCHER, inputTexts, setUpChat, sortieWithInput } from './cli-chat-harness.ts';

afterEach(cleanUpAll);

/** A mission beside the agent: a chat runs as its own mission `chat` whatever the project holds. */
const USERS_MISSION = `
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
    const { dir, stateDir, flags, env } = await setUpChat(server.baseUrl('openai'), USERS_MISSION);
    const result = await sortieWithInput(
      ['chat', 'fetcher', dir, '--task', 'How many users are there?', ...flags],
      '',
      env,
    );
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
    const index = jsonLines(await readFile(join(env.SORTIE_HOME, 'runs.jsonl'), 'utf8'));
    expect(index.map((entry) => [entry.mission, entry.kind])).toEqual([['chat', 'chat']]);
  }, 180_000);

  it('keeps the conversation over two lines of --plain, and show and replay read the chat', async () => {
    const server = await startModelServer([
      reply(FETCHER, 'Ada and Alan.'),
      reply(FETCHER, 'Alan came second.'),
    ]);
    const { dir, stateDir, flags, env } = await setUpChat(server.baseUrl('openai'), USERS_MISSION);
    const chat = await sortieWithInput(
      ['chat', 'fetcher', dir, '--plain', ...flags],
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
    const { dir, flags, env } = await setUpChat(server.baseUrl('openai'), USERS_MISSION);
    const result = await sortieWithInput(
      ['chat', 'fetcher', dir, '--json', '--task', 'How many users are there?', ...flags],
      '',
      env,
    );
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
    const dir = await writeProject(CHAT_HCL + USERS_MISSION);
    const result = await sortie(['chat', 'fetchr', dir, '--task', 'hello']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('agent "fetchr" does not exist (did you mean "fetcher"?)');
    expect(result.stderr).not.toContain('    at ');
  }, 120_000);
});
