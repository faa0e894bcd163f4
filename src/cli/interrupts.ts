/** Where interrupt signals come from (the process, or a test's fake). */
export interface SignalSource {
  on(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
  off(signal: 'SIGINT' | 'SIGTERM', listener: () => void): void;
}

/** The interrupt handling of one run. */
export interface Interrupts {
  /** The run was cancelled another way (the TUI's Ctrl-C): the next signal leaves at once. */
  markCancelled(): void;
  /** Removes the signal listeners. */
  dispose(): void;
}

/**
 * Ctrl-C and SIGTERM during a run (runtime.md "Cancellation"): the first cancels the run
 * (it finishes, journals, exits 130); the second exits 130 at once.
 */
export function handleInterrupts(
  cancel: () => void,
  exitNow: () => void,
  source: SignalSource = process,
): Interrupts {
  let cancelled = false;
  const listener = (): void => {
    if (cancelled) {
      exitNow();
      return;
    }
    cancelled = true;
    cancel();
  };
  source.on('SIGINT', listener);
  source.on('SIGTERM', listener);
  return {
    markCancelled: () => {
      cancelled = true;
    },
    dispose: () => {
      source.off('SIGINT', listener);
      source.off('SIGTERM', listener);
    },
  };
}
