/**
 * A live run in the Ink TUI. The TUI's own Ctrl-C cancels the run; quitting the TUI while the
 * run still works cancels it too, and the CLI waits for the journal before it exits.
 */
import type { RunHandle, RunResult } from '../actors/contracts.ts';
import type { MissionEvent } from '../base/events.ts';
import type { DebugGate } from '../runtime/gate.ts';
import type { TuiForker } from '../tui/index.ts';
import type { Interrupts } from './interrupts.ts';

/** What the TUI of a live run needs. */
export interface TuiRun {
  handle: RunHandle;
  /** The run's events from the first one on. */
  subscribe: (listener: (event: MissionEvent) => void) => () => void;
  gate: DebugGate | undefined;
  title: string;
  interrupts: Interrupts;
  /** Where to say that the run is still being cancelled. */
  stderr: (text: string) => void;
  /** Whether the screen may use colour (`NO_COLOR` says no). */
  color: boolean;
  /** Makes forks (`f`, `e`); the TUI quits once one is chosen. */
  forker?: TuiForker;
  /** A budget's warning holds the run and the TUI offers to raise its limit. */
  budgets?: boolean;
}

/** Shows the run until the person quits; resolves with the run's result. */
export async function runInTui(run: TuiRun): Promise<RunResult> {
  const { renderTui } = await import('../tui/index.ts');
  let finished = false;
  void run.handle.done.then(() => {
    finished = true;
  });
  const tui = renderTui({
    subscribe: run.subscribe,
    gate: run.gate,
    cancel: () => {
      run.interrupts.markCancelled();
      run.handle.cancel();
    },
    title: run.title,
    human: run.handle.human,
    color: run.color,
    ...(run.forker === undefined ? {} : { forker: run.forker }),
    ...(run.budgets === true ? { budgets: run.handle.budgets } : {}),
    stdout: process.stdout,
    stdin: process.stdin,
  });
  await tui.waitUntilExit();
  if (!finished) {
    run.interrupts.markCancelled();
    run.handle.cancel();
    run.stderr('cancelling the run and writing its journal (Ctrl-C again to leave at once)\n');
  }
  return run.handle.done;
}
