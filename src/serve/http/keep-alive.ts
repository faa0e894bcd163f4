/**
 * The keep-alive of a long-lived response: a call every interval on the server's clock (a
 * test's clock moves on command), so an event stream with nothing to say still sends bytes.
 */
import type { ClockTimer, SchedulerClock } from '../scheduler-clock.ts';

/** How often an event stream with nothing to send says it is alive. */
export const KEEP_ALIVE_MS = 15_000;

/** Calls `beat` every `intervalMs` on `clock` until the returned function is called. */
export function keepAlive(clock: SchedulerClock, intervalMs: number, beat: () => void): () => void {
  let timer: ClockTimer | undefined;
  let stopped = false;
  const next = (): void => {
    timer = clock.setTimer(() => {
      if (stopped) return;
      beat();
      next();
    }, intervalMs);
  };
  next();
  return () => {
    stopped = true;
    timer?.cancel();
  };
}
