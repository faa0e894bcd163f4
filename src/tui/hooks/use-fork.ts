/**
 * Forking from the TUI (`f`, `e`). The CLI makes the fork (src/cli/tui-fork.ts): the TUI only
 * says where, lends the terminal to the editor, shows what went wrong, and quits once a fork
 * is chosen so that the CLI can run it in a TUI of its own.
 */
import { useCallback } from 'react';
import { reasonOf } from '../../base/reason.ts';

/** Runs `work` with the terminal handed over (the TUI's screen kept aside), then takes it back. */
export type Suspend = <T>(work: () => T) => T;

/** The CLI's half of forking from the TUI. */
export interface TuiForker {
  /**
   * Prepares a fork at `seq`; with `edit`, the event is edited first (the editor runs inside
   * `suspend`). Resolves with what is wrong, shown in the TUI while nothing is forked, or with
   * null once the fork is chosen: the TUI then quits and the CLI runs the fork.
   */
  prepare(seq: number, edit: boolean, suspend: Suspend): Promise<string | null>;
}

/** Lends nothing: the work runs as it is (tests, a screen that is not a terminal). */
export const runDirectly: Suspend = (work) => work();

/** The `fork` target of the key commands, or undefined when the run cannot be forked here. */
export function useFork(
  forker: TuiForker | undefined,
  suspend: Suspend,
  setNotice: (notice: string) => void,
  exit: () => void,
): ((seq: number, edit: boolean) => void) | undefined {
  const fork = useCallback(
    (seq: number, edit: boolean) => {
      if (forker === undefined) return;
      setNotice(`forking at seq ${seq}…`);
      forker.prepare(seq, edit, suspend).then(
        (problem) => (problem === null ? exit() : setNotice(problem)),
        (error: unknown) => setNotice(reasonOf(error)),
      );
    },
    [forker, suspend, setNotice, exit],
  );
  return forker === undefined ? undefined : fork;
}
