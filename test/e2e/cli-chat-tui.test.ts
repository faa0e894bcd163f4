/**
 * `sortie chat AGENT` in the real CLI's TUI (tmux, NO_COLOR, 80×24 and 120×40, scripted model
 * server): `a` opens the line for the person's message, the agent's HTTP tool call and its
 * reply show in the agent's detail pane, and `/exit` ends the chat, which `q` leaves with 0; with
 * `--break tool:NAME` the chat holds before the tool runs and `c` lets it through.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  call,
  reply,
  startHttpServer,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { closeHumanTest, closesAfterTest } from './cli-human-harness.ts';
import { CHAT_HCL, FETCHER } from './cli-chat-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';

afterEach(closeHumanTest);

/** A chat of `fetcher` in tmux whose one tool call gets `users` and whose reply is `answer`. */
async function startChat(
  users: string[],
  answer: string,
  size: { columns: number; rows: number },
  flags = '',
) {
  const api = await startHttpServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(users));
  });
  const server = await startModelServer([
    call(FETCHER, 'builtins_http_get', { url: `${api.url}/users` }),
    reply(FETCHER, answer),
  ]);
  const dir = await temporaryDirectory('chat-tui');
  const exitFile = join(dir, 'exit-code');
  const shown = closesAfterTest(new TmuxTerminal(join(dir, 'tmux.socket'), 'chat'));
  const command = [
    `chat fetcher '${await writeProject(CHAT_HCL)}'`,
    `--var api_key=sk-test-chat --var base_url=${server.baseUrl('openai')}`,
    `--state-dir '${join(dir, 'state')}' ${flags}`,
  ].join(' ');
  shown.start(sortieCommand(command, exitFile, { SORTIE_HOME: join(dir, 'home') }), size);
  await shown.until('the question for the first message', () =>
    shown.screen().includes(`${FETCHER} asks you a question: a to answer`),
  );
  const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
  return { api, server, shown, exitCode };
}

describe('sortie chat in the TUI (tmux)', () => {
  for (const size of [
    { columns: 80, rows: 24 },
    { columns: 120, rows: 40 },
  ]) {
    it(`sends a typed message, shows the tool call and the reply, and quits with 0 at ${size.columns}×${size.rows}`, async () => {
      const { api, server, shown, exitCode } = await startChat(
        ['ada', 'alan'],
        'Two users: ada, alan.',
        size,
      );
      shown.press('a');
      await shown.until('the message line', () => shown.screen().includes('enter sends'));
      expect(shown.screen()).toContain(
        [
          `? ${FETCHER} asks you:`,
          'Your message to fetcher (/exit ends the chat)',
          '',
          '(type your answer; enter sends, esc answers later)',
          '> ▌',
        ].join('\n'),
      );
      shown.press('Who are the users?', 'Enter');
      const fetcherRequests = (): number =>
        server.requests.filter((request) => request.actor === FETCHER).length;
      await shown.until('the reply', () => fetcherRequests() === 2);
      expect(api.received.map((request) => `${request.method} ${request.url}`)).toEqual([
        'GET /users',
      ]);

      // The agent's row (the chat's one root): its detail pane holds the conversation.
      shown.press('Down', 'Down', 'Down');
      await shown.until('the reply in the detail pane', () =>
        shown.screen().includes('Two users: ada, alan.'),
      );
      const detail = shown.screen();
      expect(detail).toMatch(/│ {5}Who are the users\?/);
      expect(detail).toMatch(/│ {5}→ builtins_http_get/);
      expect(detail).toMatch(/│ {5}Two users: ada, alan\./);

      shown.press('a');
      await shown.until('the next message line', () => shown.screen().includes('enter sends'));
      shown.press('/exit', 'Enter');
      await shown.until('the finished chat', () => shown.screen().includes('✓ succeeded'));
      shown.press('q');
      await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
      expect(exitCode()).toBe('0\n');
      expect(fetcherRequests()).toBe(2);
    }, 180_000);
  }

  it('holds the tool call at --break tool:NAME until c, at 80×24', async () => {
    const { api, server, shown, exitCode } = await startChat(
      ['ada'],
      'One user: ada.',
      { columns: 80, rows: 24 },
      '--break tool:builtins_http_get',
    );
    shown.press('a');
    await shown.until('the message line', () => shown.screen().includes('enter sends'));
    shown.press('Who are the users?', 'Enter');
    // The held call's arguments show in the agent's detail pane (the tree row repaints later).
    await shown.until('the held tool call', () =>
      shown.screen().includes('⏸ held before tool builtins_http_get: arg'),
    );
    expect(shown.screen()).toContain('⏸ PAUSED (1 held)');
    expect(shown.screen()).toContain(`"url": "${api.url}/users"`);
    expect(api.received).toEqual([]);

    shown.press('c');
    await shown.until(
      'the reply after the tool ran',
      () => server.requests.filter((request) => request.actor === FETCHER).length === 2,
    );
    expect(api.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'GET /users',
    ]);
    // After `c` the notice line reads "continuing"; the agent's row shows the next question.
    await shown.until('the reply and the next question', () => {
      const screen = shown.screen();
      return screen.includes('One user: ada.') && screen.includes('● fetcher · ? asks you');
    });
    expect(shown.screen()).not.toContain('PAUSED');
    shown.press('a');
    await shown.until('the next message line', () => shown.screen().includes('enter sends'));
    shown.press('/exit', 'Enter');
    await shown.until('the finished chat', () => shown.screen().includes('✓ succeeded'));
    shown.press('q');
    await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
  }, 180_000);
});
