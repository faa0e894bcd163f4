/**
 * The clock the scheduler and the event streams' keep-alive read and wait on: the system's, or a
 * test's that moves on command.
 */

/** A pending wake-up; `cancel` makes sure it never calls back. */
export interface ClockTimer {
  cancel(): void;
}

/** What the scheduler needs of time: the present, and a call back after a delay. */
export interface SchedulerClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once, `delayMs` from now (or later). */
  setTimer(callback: () => void, delayMs: number): ClockTimer;
}

/**
 * Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer wait wakes early and the
 * scheduler, finding its fire time still ahead, waits again.
 */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/**
 * The system clock. Its timers are unref'd: the server's listening socket keeps the process
 * alive, and a scheduler left running must not hold a process that is otherwise done.
 */
export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimer: (callback, delayMs) => {
    const timer = setTimeout(callback, Math.min(Math.max(delayMs, 0), LONGEST_TIMER_MS));
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};
