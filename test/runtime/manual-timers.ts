/** Timers driven by hand: `advance(ms)` fires what is due, in order. No real time passes. */
import type { Timers } from '../../src/base/abort.ts';

export class ManualTimers implements Timers {
  private now = 0;
  private nextId = 1;
  private readonly pending = new Map<number, { at: number; callback: () => void }>();

  setTimeout(callback: () => void, milliseconds: number): unknown {
    const id = this.nextId++;
    this.pending.set(id, { at: this.now + milliseconds, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Timers still set. */
  get count(): number {
    return this.pending.size;
  }

  advance(milliseconds: number): void {
    this.now += milliseconds;
    const due = [...this.pending].filter(([, timer]) => timer.at <= this.now);
    due.sort(([, left], [, right]) => left.at - right.at);
    for (const [id, timer] of due) {
      this.pending.delete(id);
      timer.callback();
    }
  }
}
