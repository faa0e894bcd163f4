/**
 * The real CLI's TUI on the smallest screen it promises, 80×24, with NO_COLOR=1 (as every TUI
 * end-to-end test runs): no text style escapes, the footer's most important keys with `?` for
 * the rest, a help overlay that scrolls, the held request shown whole, the footer of a finished
 * run, and Ctrl-C leaving a finished run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { TURNS } from './tui-script.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const PROJECT = 'test/fixtures/e2e/tui';
const directory = temporaryDirectorySync('tui-fit');
const stateDir = join(directory, 'state');
const exitFile = join(directory, 'exit-code');
const terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'fit');
const screen = (): string => terminal.screen();
const until = (what: string, check: () => boolean): Promise<void> => terminal.until(what, check);
/** Escape sequences that style text (SGR: colour, bold, dim, inverse); capture-pane -e writes them. */
// eslint-disable-next-line no-control-regex -- the escape character is what is looked for
const STYLE_ESCAPE = /\u001b\[[\d;]*m/;

/** The last two non-blank lines: the footer's key hints. */
function footer(): string[] {
  return screen().trimEnd().split('\n').slice(-2);
}

let server: ScriptedModelServer;

beforeAll(async () => {
  server = await ScriptedModelServer.start({ turns: TURNS });
});

afterAll(async () => {
  terminal.close();
  await server.close();
});

describe('sortie run in the TUI at 80×24 with NO_COLOR=1 (tmux, real CLI)', () => {
  it('fits, scrolls its help, shows the held request and quits a finished run on ctrl-c', async () => {
    const args = [
      `run ${PROJECT}`,
      `--var api_key=sk-test-tui --var base_url=${server.baseUrl('openai')}`,
      `--state-dir '${stateDir}' --step`,
    ].join(' ');
    terminal.start(sortieCommand(args, exitFile), { columns: 80, rows: 24 });

    await until('the first held request', () => screen().includes('PAUSED (1 held)'));
    terminal.press('jj');
    await until('the held request in the detail pane', () =>
      screen().includes('system: You are the commander of task'),
    );
    const held = screen();
    expect(held).toContain('▸ ⏸ held before model request: 1 message');
    expect(held).toContain('[1 Tree]');
    expect(footer()).toEqual([
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  space pause',
      'n step  c continue  ? all keys  q quit',
    ]);
    expect(terminal.styledScreen()).not.toMatch(STYLE_ESCAPE);
    if (process.env.SORTIE_SCREENSHOTS !== undefined)
      writeFileSync(join(process.env.SORTIE_SCREENSHOTS, 'held.txt'), held);

    terminal.press('?');
    await until('the help overlay', () => screen().includes('Keys (live run) 1–17 of 54'));
    terminal.press(...Array.from({ length: 22 }, () => 'j'));
    await until('the help scrolled down', () => screen().includes('23–39 of 54'));
    expect(screen()).toContain(
      'ctrl-c    anywhere          cancel the run (again to leave at once)',
    );
    terminal.press('?');
    await until('the help closed', () => screen().includes('▸ ⏸ held before model request'));

    terminal.press('c');
    await until('the finished run', () => screen().includes('✓ succeeded'));
    expect(footer()).toEqual([
      'enter/→ expand  tab pane  1 tree  2 costs  3 events  4 outputs  ? all keys',
      'q quit',
    ]);
    terminal.press('2');
    await until('the Costs tab', () => screen().includes('per model'));
    const costs = screen();
    // The total row has the tables' headings above it; the figure columns are as wide as their
    // figures, which leaves the model's name whole.
    expect(costs).toMatch(
      /^ {21}req +input +cache rd +cache wr +output +reasoning +dollars\ntotal {18}9 /m,
    );
    expect(costs).toMatch(/^openai\.gpt_4o_mini +9 /m);
    expect(terminal.styledScreen()).not.toMatch(STYLE_ESCAPE);
    if (process.env.SORTIE_SCREENSHOTS !== undefined)
      writeFileSync(join(process.env.SORTIE_SCREENSHOTS, 'costs.txt'), costs);

    terminal.press('C-c');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
    server.assertDone();
  }, 120_000);
});
