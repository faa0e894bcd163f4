import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProviderTimeoutError } from '../../src/models/provider-errors.ts';
import {
  createStreamDeadlines,
  DEFAULT_TIMEOUTS,
  resolveTimeouts,
} from '../../src/models/timeouts.ts';

describe('createStreamDeadlines', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('uses 60 s, 120 s and 15 min by default', () => {
    expect(DEFAULT_TIMEOUTS).toEqual({ firstByteMs: 60_000, idleMs: 120_000, totalMs: 900_000 });
    // Resolved once per request: without overrides, the frozen defaults and no copy.
    expect(resolveTimeouts()).toBe(DEFAULT_TIMEOUTS);
    expect(resolveTimeouts({ idleMs: 50 })).toEqual({
      firstByteMs: 60_000,
      idleMs: 50,
      totalMs: 900_000,
    });
  });

  it('expires the first-byte deadline when nothing arrives', () => {
    const deadlines = createStreamDeadlines({ provider: 'openai', timeouts: { firstByteMs: 100 } });
    vi.advanceTimersByTime(99);
    expect(deadlines.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadlines.signal.aborted).toBe(true);
    const error = deadlines.expired();
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect([error?.timeout, error?.retryable, error?.provider]).toEqual([
      'first_byte',
      true,
      'openai',
    ]);
    expect(deadlines.translate(new Error('aborted'))).toBe(error);
    deadlines.dispose();
  });

  it('switches to the idle deadline on touch and restarts it on every event', () => {
    const deadlines = createStreamDeadlines({
      provider: 'openai',
      timeouts: { firstByteMs: 100, idleMs: 50 },
    });
    deadlines.touch();
    vi.advanceTimersByTime(40);
    deadlines.touch();
    vi.advanceTimersByTime(40);
    expect(deadlines.signal.aborted).toBe(false);
    vi.advanceTimersByTime(10);
    expect(deadlines.expired()?.timeout).toBe('idle');
    deadlines.dispose();
  });

  it('expires the total deadline even while events keep coming', () => {
    const deadlines = createStreamDeadlines({
      provider: 'gemini',
      timeouts: { idleMs: 50, totalMs: 120 },
    });
    for (let step = 0; step < 4; step++) {
      deadlines.touch();
      vi.advanceTimersByTime(40);
    }
    expect(deadlines.expired()?.timeout).toBe('total');
    expect(deadlines.expired()?.message).toBe('the request took longer than 0.12 s');
    deadlines.dispose();
  });

  it('follows the caller signal without reporting a timeout', () => {
    const caller = new AbortController();
    const deadlines = createStreamDeadlines({ provider: 'openai', signal: caller.signal });
    const reason = new Error('user stop');
    caller.abort(reason);
    expect(deadlines.signal.reason).toBe(reason);
    expect(deadlines.expired()).toBeUndefined();
    expect(deadlines.translate(reason)).toBe(reason);
    deadlines.dispose();
  });

  it('stops all timers on dispose', () => {
    const deadlines = createStreamDeadlines({ provider: 'openai', timeouts: { firstByteMs: 10 } });
    deadlines.dispose();
    vi.advanceTimersByTime(1_000_000);
    expect(deadlines.signal.aborted).toBe(false);
  });

  it('keeps one timer per request: the first-byte timer, when it fires after the first event, waits on for the idle deadline', () => {
    const deadlines = createStreamDeadlines({
      provider: 'openai',
      timeouts: { firstByteMs: 100, idleMs: 150 },
    });
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(10);
    deadlines.touch();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(90);
    expect(deadlines.signal.aborted).toBe(false);
    vi.advanceTimersByTime(59);
    expect(deadlines.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadlines.expired()?.timeout).toBe('idle');
    deadlines.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });
});
