import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MissionEvent } from '../../src/base/events.ts';
import { createReplayPlayer } from '../../src/tui/replay-player.ts';

/** Warnings at the given offsets (ms) from the start. */
function eventsAt(offsets: number[]): MissionEvent[] {
  return offsets.map((offset, position) => ({
    seq: position + 1,
    time: new Date(Date.UTC(2026, 0, 1) + offset).toISOString(),
    runId: 'r',
    actor: 'run',
    type: 'warning',
    code: 'test',
    message: String(position + 1),
  }));
}

describe('createReplayPlayer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function record(player: ReturnType<typeof createReplayPlayer>): number[] {
    const seen: number[] = [];
    player.subscribe((event) => seen.push(event.seq));
    return seen;
  }

  it('re-emits events with their recorded spacing', () => {
    const seen = record(createReplayPlayer(eventsAt([0, 1000, 1500, 4000])));
    vi.advanceTimersByTime(0);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(999);
    expect(seen).toEqual([1]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 2]);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(2500);
    expect(seen).toEqual([1, 2, 3, 4]);
  });

  it('scales the spacing by the speed, also for a wait under way', () => {
    const player = createReplayPlayer(eventsAt([0, 1000, 2000]), { speed: 2 });
    const seen = record(player);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual([1, 2]);
    vi.advanceTimersByTime(250);
    player.setSpeed(0.5);
    // 250 ms were left at ×2, i.e. 500 recorded ms: 1000 ms at ×0.5.
    vi.advanceTimersByTime(999);
    expect(seen).toEqual([1, 2]);
    vi.advanceTimersByTime(1);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('pauses, steps one event at a time and resumes', () => {
    const player = createReplayPlayer(eventsAt([0, 100, 200, 300]));
    const seen = record(player);
    vi.advanceTimersByTime(0);
    player.pause();
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual([1]);
    player.step();
    expect(seen).toEqual([1, 2]);
    expect(player.status()).toEqual({
      speed: 1,
      paused: true,
      position: 2,
      total: 4,
      finished: false,
    });
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual([1, 2]);
    player.resume();
    vi.advanceTimersByTime(100);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('jumps to the end and hands past events to late subscribers', () => {
    const player = createReplayPlayer(eventsAt([0, 60_000, 120_000]));
    const seen = record(player);
    player.seekEnd();
    expect(seen).toEqual([1, 2, 3]);
    expect(player.status().finished).toBe(true);
    const late: number[] = [];
    player.subscribe((event) => late.push(event.seq));
    expect(late).toEqual([1, 2, 3]);
  });

  it('reports status changes and keeps the speed within bounds', () => {
    const player = createReplayPlayer(eventsAt([0]), { paused: true });
    let changes = 0;
    player.onStatus(() => changes++);
    player.setSpeed(1000);
    expect(player.status().speed).toBe(64);
    player.setSpeed(0.01);
    expect(player.status().speed).toBe(0.25);
    expect(changes).toBe(2);
  });

  it('keeps the recorded pace when the screen is slower than the events', () => {
    // A listener that takes 300 ms per event (a slow repaint) on a clock the test moves.
    let now = 0;
    const pending: Array<{ callback: () => void; at: number }> = [];
    const timers = {
      setTimeout: (callback: () => void, ms: number) => pending.push({ callback, at: now + ms }),
      clearTimeout: () => undefined,
      now: () => now,
    };
    const player = createReplayPlayer(eventsAt([0, 100, 200, 300, 2000]), { timers });
    const seen: number[] = [];
    let statuses = 0;
    player.onStatus(() => statuses++);
    player.subscribe((event) => {
      seen.push(event.seq);
      now += 300;
    });
    const fire = (): void => {
      const next = pending.shift();
      if (next === undefined) throw new Error('nothing scheduled');
      now = Math.max(now, next.at);
      next.callback();
    };
    fire();
    // Events 2–4 were due while event 1 was being drawn: they play at once, in one repaint.
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(statuses).toBe(1);
    // Event 5 is due 2000 ms after the start, not 1700 ms after the last repaint.
    expect(pending).toEqual([{ callback: expect.any(Function), at: 2000 }]);
    fire();
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('skips the time a held gate point waited for the person, unless asked to keep it', () => {
    const recorded = eventsAt([0, 100, 60_100, 60_200]);
    const paused = { ...recorded[1]!, type: 'gate.paused' } as unknown as MissionEvent;
    const resumed = { ...recorded[2]!, type: 'gate.resumed' } as unknown as MissionEvent;
    const events = [recorded[0]!, paused, resumed, recorded[3]!];

    const skipping = record(createReplayPlayer(events));
    vi.advanceTimersByTime(100);
    expect(skipping).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(100);
    expect(skipping).toEqual([1, 2, 3, 4]);

    const keeping = record(createReplayPlayer(events, { keepPauses: true }));
    vi.advanceTimersByTime(60_099);
    expect(keeping).toEqual([1, 2]);
    vi.advanceTimersByTime(1);
    expect(keeping).toEqual([1, 2, 3]);
  });

  it("plays a breakpoint change at once, the person's time around it skipped or kept as the pause's", () => {
    const recorded = eventsAt([0, 100, 30_100, 60_100, 60_200]);
    const as = (index: number, type: string) =>
      ({ ...recorded[index]!, type }) as unknown as MissionEvent;
    const held = [recorded[0]!, as(1, 'gate.paused'), as(2, 'breakpoints.changed')];
    const events = [...held, as(3, 'gate.resumed'), recorded[4]!];

    const skipping = record(createReplayPlayer(events));
    vi.advanceTimersByTime(100);
    expect(skipping).toEqual([1, 2, 3, 4]);
    vi.advanceTimersByTime(100);
    expect(skipping).toEqual([1, 2, 3, 4, 5]);

    const keeping = record(createReplayPlayer(events, { keepPauses: true }));
    vi.advanceTimersByTime(100);
    expect(keeping).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(59_999);
    expect(keeping).toEqual([1, 2, 3]);
    vi.advanceTimersByTime(1);
    expect(keeping).toEqual([1, 2, 3, 4]);

    // While the run goes on, the change takes none of the time between the run's events.
    const running = [recorded[0]!, as(2, 'breakpoints.changed'), recorded[4]!];
    const live = record(createReplayPlayer(running));
    vi.advanceTimersByTime(0);
    expect(live).toEqual([1, 3]);
    vi.advanceTimersByTime(60_199);
    expect(live).toEqual([1, 3]);
    vi.advanceTimersByTime(1);
    expect(live).toEqual([1, 3, 5]);
  });
});
