import type { ClockTimer, SchedulerClock } from '../../src/serve/scheduler-clock.ts';

interface PendingTimer {
  due: number;
  callback: () => void;
  live: boolean;
}

/**
 * A clock that moves only when told: `advanceTo` runs due timers in order, each at its own
 * time. `longestTimerMs` cuts long waits short as Node's timers do beyond about 24.8 days.
 */
export class ManualClock implements SchedulerClock {
  private current: number;
  private readonly timers: PendingTimer[] = [];

  constructor(
    start: string,
    private readonly longestTimerMs = Number.POSITIVE_INFINITY,
  ) {
    this.current = Date.parse(start);
  }

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, delayMs: number): ClockTimer {
    const timer = {
      due: this.current + Math.min(Math.max(delayMs, 0), this.longestTimerMs),
      callback,
      live: true,
    };
    this.timers.push(timer);
    return { cancel: () => void (timer.live = false) };
  }

  /** Moves the clock to `time` (ISO), running every timer due by then at its due time. */
  advanceTo(time: string): void {
    const end = Date.parse(time);
    for (;;) {
      const due = this.timers
        .filter((timer) => timer.live && timer.due <= end)
        .sort((a, b) => a.due - b.due)[0];
      if (due === undefined) break;
      due.live = false;
      // A timer overdue after jumpTo runs late, at the present: time never goes back.
      this.current = Math.max(this.current, due.due);
      due.callback();
    }
    this.current = end;
  }

  /** The machine slept until `time` (ISO): the clock moves on and no timer runs yet. */
  jumpTo(time: string): void {
    this.current = Date.parse(time);
  }

  /** Timers still waiting. */
  pending(): number {
    return this.timers.filter((timer) => timer.live).length;
  }
}
