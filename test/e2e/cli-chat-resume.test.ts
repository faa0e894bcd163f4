/**
 * `sortie resume` and `sortie fork` of a chat through the real CLI against the scripted model
 * server: a `--plain` chat killed with SIGKILL mid-turn, or cancelled (SIGINT) while it waits
 * for the person, goes on with its conversation from stdin; a fork at the agent's reply goes
 * on from there as a new chat run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUpAll, jsonLines, reply, runDirs, startModelServer } from './agent-tools-harness.ts';
import {
  FETCHER,
  inputTexts,
  setUpChat,
  sortieTyped,
  sortieWithInput,
  stopTypedChildren,
} from './cli-chat-harness.ts';
import { until } from '../helpers/until.ts';

afterEach(async () => {
  stopTypedChildren();
  await cleanUpAll();
});

/** How long to wait for a CLI child's output: its start-up is slow on a loaded machine. */
const WAIT = { timeoutMs: 240_000 };

/** A project, a home with its state directory, and the flags every command of the test takes. */
async function setUp(baseUrl: string) {
  const chat = await setUpChat(baseUrl);
  return { ...chat, flags: ['--plain', ...chat.flags] };
}

async function onlyRunId(stateDir: string): Promise<string> {
  const [runDir] = await runDirs(stateDir);
  return runDir!.split('/').at(-1)!;
}

const FIRST = ['user: Who are the users?', 'assistant: Ada and Alan.'];
const SECOND = [...FIRST, 'user: Who came second?'];
const THIRD = [...SECOND, 'assistant: Alan came second.', 'user: Who came third?'];

describe('sortie resume and fork of a chat (CLI)', () => {
  it('resumes a chat killed mid-turn: the cut turn is answered, then stdin goes on', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await startModelServer([
      reply(FETCHER, 'Ada and Alan.'),
      { ...reply(FETCHER, 'never sent'), heldUntil: held },
      reply(FETCHER, 'Alan came second.'),
      reply(FETCHER, 'Nobody came third.'),
    ]);
    const { dir, stateDir, flags, env } = await setUp(server.baseUrl('openai'));
    const chat = sortieTyped(['chat', 'fetcher', dir, ...flags], env);
    chat.type('Who are the users?');
    await until('the first reply', () => chat.stdout() === 'Ada and Alan.\n', {
      ...WAIT,
      lastSeen: chat.stderr,
    });
    chat.type('Who came second?');
    await until('the second request', () => server.requests.length === 2, WAIT);
    const runId = await onlyRunId(stateDir);
    const journal = join(stateDir, 'runs', runId, 'journal.jsonl');
    await until(
      'the second message in the journal',
      async () =>
        (await readFile(journal, 'utf8'))
          .split('\n')
          .some((line) => line.includes('"message.appended"') && line.includes('Who came second?')),
      WAIT,
    );
    chat.kill('SIGKILL');
    expect((await chat.done).status).toBe(null);
    release();

    const resumed = await sortieWithInput(['resume', runId, ...flags], 'Who came third?\n', env);
    expect(resumed.stderr).not.toContain('Error');
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toBe('Alan came second.\nNobody came third.\n');
    const requests = server.requests.filter((request) => request.actor === FETCHER);
    expect(requests.map((request) => inputTexts(request.body))).toEqual([
      ['user: Who are the users?'],
      SECOND,
      SECOND,
      THIRD,
    ]);
    const index = jsonLines(await readFile(join(env.SORTIE_HOME, 'runs.jsonl'), 'utf8'));
    expect(index.map((entry) => [entry.runId, entry.kind])).toEqual([
      [runId, 'chat'],
      [runId, 'chat'],
    ]);
  }, 900_000);

  it('resumes a chat cancelled while it waited for the person, with the whole conversation', async () => {
    const server = await startModelServer([
      reply(FETCHER, 'Ada and Alan.'),
      reply(FETCHER, 'Alan came second.'),
    ]);
    const { dir, stateDir, flags, env } = await setUp(server.baseUrl('openai'));
    const chat = sortieTyped(['chat', 'fetcher', dir, ...flags], env);
    chat.type('Who are the users?');
    await until(
      'the first reply and the next question',
      () => chat.stderr().split(`? ${FETCHER} asks:`).length === 3,
      { ...WAIT, lastSeen: chat.stderr },
    );
    chat.kill('SIGINT');
    const cancelled = await chat.done;
    expect(cancelled.status).toBe(130);
    expect(cancelled.stdout).toBe('Ada and Alan.\n');
    const runId = await onlyRunId(stateDir);
    expect(cancelled.stderr).toContain(`continue it with: sortie resume ${runId}`);

    const resumed = await sortieWithInput(['resume', runId, ...flags], 'Who came second?\n', env);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toBe('Alan came second.\n');
    const requests = server.requests.filter((request) => request.actor === FETCHER);
    expect(requests.map((request) => inputTexts(request.body))).toEqual([
      ['user: Who are the users?'],
      SECOND,
    ]);
  }, 900_000);

  it('forks a chat at the agent reply: a new chat run goes on from that turn', async () => {
    const server = await startModelServer([
      reply(FETCHER, 'Ada and Alan.'),
      reply(FETCHER, 'Alan came second.'),
      reply(FETCHER, 'Nobody came third.'),
    ]);
    const { dir, stateDir, flags, env } = await setUp(server.baseUrl('openai'));
    const chat = await sortieWithInput(
      ['chat', 'fetcher', dir, ...flags],
      'Who are the users?\nWho came second?\n',
      env,
    );
    expect(chat.status).toBe(0);
    const parent = await onlyRunId(stateDir);
    const events = jsonLines(
      await readFile(join(stateDir, 'runs', parent, 'journal.jsonl'), 'utf8'),
    );
    const responses = events.filter(
      (event) => event.type === 'model.response' && event.actor === FETCHER,
    );
    const at = String(responses[1]?.seq);

    const fork = await sortieWithInput(
      ['fork', parent, '--at', at, ...flags],
      'Who came third?\n',
      env,
    );
    expect(fork.status).toBe(0);
    // The fork's kept reply answers the cut turn; only the new message asks the model.
    expect(fork.stdout).toBe('Alan came second.\nNobody came third.\n');
    const requests = server.requests.filter((request) => request.actor === FETCHER);
    expect(requests.map((request) => inputTexts(request.body))).toEqual([
      ['user: Who are the users?'],
      SECOND,
      THIRD,
    ]);
    const runIds = (await runDirs(stateDir)).map((path) => path.split('/').at(-1)!);
    const forked = runIds.find((runId) => runId !== parent)!;
    expect(fork.stderr).toContain(`forked run ${forked} from ${parent} at `);
    const index = jsonLines(await readFile(join(env.SORTIE_HOME, 'runs.jsonl'), 'utf8'));
    expect(index.map((entry) => [entry.runId, entry.kind])).toEqual([
      [parent, 'chat'],
      [forked, 'chat'],
    ]);
  }, 900_000);
});
