/**
 * The tests' one poller, for conditions no event or promise announces: a terminal's screen,
 * a file another process writes, a store that publishes on a timer. It checks the condition
 * between short pauses and fails, saying what it waited for, after a bounded time.
 */

/** How `until` waits and what it reports when it gives up. */
export interface UntilOptions {
  /** How long to keep checking; generous, as CI shares 2 cores with other suites. */
  timeoutMs?: number;
  /** The pause between checks. */
  pauseMs?: number;
  /** What to show beside the failure, such as the last screen. */
  lastSeen?: () => string;
}

/** Resolves once `condition` holds; rejects naming `what` when it has not held in time. */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  options: UntilOptions = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (!(await condition())) {
    if (Date.now() > deadline) {
      const lastSeen = options.lastSeen?.();
      throw new Error(
        `gave up waiting for ${what}${lastSeen === undefined ? '' : `; last seen:\n${lastSeen}`}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, options.pauseMs ?? 10));
  }
}
