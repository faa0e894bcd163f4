/**
 * `sortie replay` picks the TUI or the plain line log by the same CI rule as `sortie run`
 * (Ink's: `CI` or `CONTINUOUS_INTEGRATION` set to anything but `0` or `false`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.ts';
import { chooseOutputMode } from '../../src/cli/output-mode.ts';
import { replayCommand, replayShowsTui } from '../../src/cli/replay-command.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

/** A terminal (or not) with the given environment; `printed` collects stdout. */
function fakeIo(env: Record<string, string>, stdoutIsTty: boolean): CliIo & { printed(): string } {
  let out = '';
  return {
    stdout: (text) => void (out += text),
    stderr: () => undefined,
    env: { NO_COLOR: '1', ...env },
    stdoutIsTty,
    stderrIsTty: false,
    printed: () => out,
  };
}

describe('replayShowsTui', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ CI: '1' }, true, false],
    [{ CI: 'true' }, true, false],
    [{ CONTINUOUS_INTEGRATION: '1' }, true, false],
    [{ CI: '0' }, true, true],
    [{ CI: 'false' }, true, true],
    [{ CONTINUOUS_INTEGRATION: 'false' }, true, true],
  ])('with %o on a TTY=%s: %s, as sortie run decides', (env, tty, expected) => {
    const io = fakeIo(env, tty);
    expect(replayShowsTui({}, io)).toBe(expected);
    expect(chooseOutputMode({}, io) === 'tui').toBe(expected);
  });

  it('never with --plain', () => {
    expect(replayShowsTui({ plain: true }, fakeIo({}, true))).toBe(false);
  });
});

describe('replayCommand', () => {
  it('prints the plain line log on a terminal when CONTINUOUS_INTEGRATION is set', async () => {
    const path = join(await temporaryDirectory('replay-ci'), 'journal.jsonl');
    const warning = {
      seq: 1,
      time: '2026-01-01T00:00:00.000Z',
      runId: 'r-1',
      actor: 'run',
      type: 'warning',
      code: 'c',
      message: 'recorded warning',
    };
    await writeFile(path, `${JSON.stringify(warning)}\n`);
    const io = fakeIo({ CONTINUOUS_INTEGRATION: '1' }, true);
    const request = { run: path, directory: '.', flags: { speed: '1' } };
    expect(await replayCommand(request, io)).toBe(0);
    expect(io.printed()).toBe('00:00.0 run  warning: recorded warning\ncosts: no model requests\n');
  });
});
