/** Process exit codes (cli-tui.md): the same for every command, and the one `run.finished` records. */
import type { Outcome } from './events.ts';

export const ExitCode = {
  ok: 0,
  missionFailed: 1,
  usage: 2,
  cancelled: 130,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

const OUTCOME_CODES: Record<Outcome, ExitCode> = {
  succeeded: ExitCode.ok,
  failed: ExitCode.missionFailed,
  cancelled: ExitCode.cancelled,
};

/** The exit code of a run that ended with `outcome`. */
export function exitCodeOf(outcome: Outcome): ExitCode {
  return OUTCOME_CODES[outcome];
}
