/**
 * Keys that arrive together, in one read of the terminal (fast typing, a paste, one `tmux
 * send-keys` call), are each handled, in order, with what the keys before them did: the real
 * CLI's TUI in tmux over a finished run of the scripted model server.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { journalOf } from './cli-resume-harness.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { TURNS } from './tui-script.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const PROJECT = 'test/fixtures/e2e/tui';
const directory = temporaryDirectorySync('tui-keys');
const stateDir = join(directory, 'state');
const exitFile = join(directory, 'exit-code');
const terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'keys');
const screen = (): string => terminal.screen();
const until = (what: string, check: () => boolean): Promise<void> => terminal.until(what, check);

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await ScriptedModelServer.start({ turns: TURNS });
});

afterAll(async () => {
  terminal.close();
  await server.close();
});

describe('keys sent together to the TUI (tmux, real CLI, one send-keys call each)', () => {
  it('handles every key of one read in order: moves, collapse, Enter, a filter with its Enter, a move after it', async () => {
    const args = [
      `run ${PROJECT}`,
      `--var api_key=sk-test-tui-keys --var base_url=${server.baseUrl('openai')}`,
      `--state-dir '${stateDir}'`,
    ].join(' ');
    terminal.start(sortieCommand(args, exitFile));
    terminal.keepPaneOnExit();
    await until('the finished run', () => screen().includes('run finished — q to quit'));
    expect(screen()).toMatch(/^› ▾ ✓ mission timekeeping +\S/m);
    // No summary line above the header pushing the frame down: it comes once the TUI has left.
    expect(screen().split('\n')[0]).toMatch(/^sortie .*mission timekeeping/);
    expect(terminal.scrollback()).not.toContain('mission:timekeeping succeeded');

    // Down twice to survey's commander, collapse it, expand it again with Enter, down to the
    // clock under it. A lost Enter leaves the commander collapsed and the last `j` on report.
    terminal.press('j', 'j', 'Left', 'Enter', 'j');
    await until('the clock selected', () => /^› {9}✓ clock +\S/m.test(screen()));
    expect(screen()).toMatch(/^ {6}▾ ✓ commander +\S/m);

    // The Events tab, the filter typed as one string with its Enter, then `k`: the cursor goes
    // to the newest line the filter leaves (the `k` is the Events tab's, not the tree's).
    terminal.press('3', '/', 'type=tool actor=commander', 'Enter', 'k');
    const [runId = ''] = readdirSync(join(stateDir, 'runs'));
    const matching = journalOf(stateDir, runId).filter(
      (event) => event.type.includes('tool') && event.actor.includes('commander'),
    );
    await until('the cursor on the newest commander tool event', () =>
      new RegExp(`^▸ *${matching.at(-1)?.seq} `, 'm').test(screen()),
    );
    expect(screen()).toContain(`/ type=tool actor=commander  (${matching.length} events)`);

    terminal.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    // The summary under the last frame (its footer), in the scrollback.
    expect(terminal.scrollback()).toMatch(
      /q quit\n+mission:timekeeping succeeded · 2 tasks · [\d,]+ tokens · \$\d+\.\d{4}\n/,
    );
  }, 120_000);
});
