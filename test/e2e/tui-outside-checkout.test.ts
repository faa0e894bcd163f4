/**
 * The CLI run from its sources (as in a checkout without a build) in a folder outside the
 * checkout still draws the TUI: tsx compiles with the checkout's tsconfig, not with whatever
 * the working folder has (there, none: the TUI's JSX failed with "React is not defined").
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './cli-child.ts';
import { TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const directory = temporaryDirectorySync('outside');
const terminal = new TmuxTerminal(join(directory, 'tmux.socket'), 'outside');

afterAll(() => {
  terminal.close();
});

describe('the TUI from the sources, run outside the checkout (tmux)', () => {
  it('draws the run and quits with its exit code', async () => {
    const exitFile = join(directory, 'exit-code');
    const environment = [
      ...['PATH', 'HOME', 'LANG', 'TMPDIR', 'XDG_STATE_HOME'].flatMap((name) =>
        process.env[name] === undefined ? [] : [`'${name}=${process.env[name]}'`],
      ),
      "'SORTIE_RUN_SOURCES=1'",
      "'TERM=xterm-256color'",
      "'NO_COLOR=1'",
    ].join(' ');
    const hello = join(ROOT, 'examples', 'hello');
    const args = `run '${hello}' --replay-model '${join(hello, 'cassette.jsonl')}' --state-dir state`;
    terminal.start(
      `cd '${directory}' && env -i ${environment} '${process.execPath}' '${join(ROOT, 'bin', 'sortie.js')}' ${args}; echo $? > '${exitFile}'`,
    );
    await terminal.until('the finished run', () => terminal.screen().includes('run finished'));
    expect(terminal.screen()).toContain('sortie · hello · mission hello');
    terminal.press('q');
    const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
    await terminal.until('the CLI to exit', () => exitCode().endsWith('\n'));
    expect(exitCode()).toBe('0\n');
  }, 120_000);
});
