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
});
