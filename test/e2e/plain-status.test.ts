/**
 * The line log's status line through the real CLI: on a terminal (tmux, `--plain`) one line
 * under the log says the elapsed time, who works, tokens and cost while a model is slow, and is
 * redrawn in place; on a pipe it never appears.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { sortieAsync } from './cli-child.ts';
import { sortieCommand, TmuxTerminal } from './tmux-terminal.ts';
import { TURNS } from './tui-script.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const PROJECT = 'test/fixtures/e2e/tui';

/** The script with survey's second commander turn answered only after `delayMs`. */
function slowScript(delayMs: number): typeof TURNS {
  return TURNS.map((turn, index) => (index === 1 ? { ...turn, delayMs } : turn));
}

let server: ScriptedModelServer | undefined;
let terminal: TmuxTerminal | undefined;
const directory = temporaryDirectorySync('plain-status');

afterEach(async () => {
  terminal?.close();
  await server?.close();
  server = undefined;
  terminal = undefined;
});

describe('the status line of the line log (real CLI)', () => {
  it('shows who works, tokens and cost in place on a terminal while a model is slow', async () => {
    // The slow turn waits until the run is cancelled (the server's close ends the wait).
    server = await ScriptedModelServer.start({ turns: slowScript(600_000) });
    const exitFile = join(directory, 'exit-terminal');
    terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'plain');
    const shown = terminal;
    const args = [
      `run ${PROJECT} --plain`,
      `--var api_key=sk-test-plain --var base_url=${server.baseUrl('openai')}`,
      `--state-dir '${join(directory, 'state-terminal')}'`,
    ].join(' ');
    shown.start(sortieCommand(args, exitFile), { columns: 80, rows: 24 });
    const statusLines = (): string[] =>
      shown
        .screen()
        .split('\n')
        .filter((line) => line.includes('· working:'));
    // Redrawn as the clock moves: still one line once it reads two seconds or more.
    await shown.until('the status line at 2 s', () =>
      statusLines().some((line) => /^… 00:0[2-9]\.\d /.test(line)),
    );
    const lines = shown.screen().trimEnd().split('\n');
    expect(statusLines()).toHaveLength(1);
    expect(lines.at(-1)).toMatch(
      /^… 00:0\d\.\d · working: commander:survey · 1,497 tokens · \$0\.\d{4}$/,
    );
    expect(lines.at(-2)).toMatch(/commander:survey {2}plan 0\/1 done · now: Ask the clock$/);
    shown.press('C-c');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await shown.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('130\n');
  }, 120_000);

  it('never writes it to a pipe, even while a model is slow', async () => {
    server = await ScriptedModelServer.start({ turns: slowScript(2_500) });
    const run = await sortieAsync([
      'run',
      PROJECT,
      '--plain',
      '--var',
      'api_key=sk-test-plain',
      '--var',
      `base_url=${server.baseUrl('openai')}`,
      '--state-dir',
      join(directory, 'state-pipe'),
    ]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain('working:');
    // eslint-disable-next-line no-control-regex -- carriage returns and escapes are what is looked for
    expect(run.stdout).not.toMatch(/[\r\u001b]/);
    // The TUI tests' mission is an ordinary run: the signal watch calls nothing in it (issue 30).
    expect(run.stdout).not.toMatch(/ {2}(looping|stalled|re-delegating): /);
  }, 120_000);
});
