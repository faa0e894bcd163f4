import { UsageError } from '../base/errors.ts';
import type { CliIo } from './io.ts';

/** How `sortie run` shows a run. */
export type OutputMode = 'tui' | 'plain' | 'json';

/** The output flags that decide the mode. */
export interface OutputFlags {
  json?: boolean;
  plain?: boolean;
  quiet?: boolean;
  step?: boolean;
  break?: readonly string[];
}

/**
 * Ink's own rule for CI (it then draws only the last frame): `CI` or `CONTINUOUS_INTEGRATION`
 * set to anything but `0` or `false`. Every command that may open a TUI must agree, or a TUI
 * would show a blank screen.
 */
export function inCi(env: Record<string, string | undefined>): boolean {
  const set = (name: string): boolean => {
    const value = env[name];
    return value !== undefined && value !== '0' && value !== 'false';
  };
  return set('CI') || set('CONTINUOUS_INTEGRATION');
}

/**
 * The TUI only on an interactive stdout outside CI (as Ink decides it) and no --json/--plain/--quiet; else
 * the line log, or JSONL with --json. Stepping needs a person at the TUI to continue, so
 * --step and --break without it are usage errors rather than a run that hangs.
 */
export function chooseOutputMode(flags: OutputFlags, io: CliIo): OutputMode {
  if (flags.json === true && flags.plain === true) {
    throw new UsageError('--json and --plain cannot be used together');
  }
  if (flags.json === true && flags.quiet === true) {
    throw new UsageError(
      '--json and --quiet cannot be used together',
      '--quiet belongs to the line log',
    );
  }
  const interactive = io.stdoutIsTty && !inCi(io.env);
  const mode: OutputMode =
    flags.json === true
      ? 'json'
      : flags.plain === true || flags.quiet === true || !interactive
        ? 'plain'
        : 'tui';
  const debugging = flags.step === true || (flags.break?.length ?? 0) > 0;
  if (debugging && mode !== 'tui') {
    throw new UsageError(
      `${flags.step === true ? '--step' : '--break'} needs the terminal UI to step and continue`,
      'run in an interactive terminal (CI unset) without --json, --plain or --quiet',
    );
  }
  return mode;
}
