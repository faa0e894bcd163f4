import { UsageError } from '../errors.ts';
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
 * The TUI only on an interactive stdout with `CI` unset and no --json/--plain/--quiet; else
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
  const ci = io.env.CI;
  const interactive = io.stdoutIsTty && (ci === undefined || ci === '');
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
