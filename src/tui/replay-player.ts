/**
 * The journal player behind `sortie replay`: re-emits a recorded run's events with their
 * recorded spacing (scaled by the speed), and lets the person pause, step one event, change
 * speed or jump to the end. No runtime and no model is involved.
 */
import { systemTimers, type Timers } from '../base/abort.ts';
import type { MissionEvent } from '../base/events.ts';

/** Timer functions and the clock the player uses; tests pass fakes (or use fake timers). */
export type ReplayTimers = Timers & { now: () => number };

export interface ReplayOptions {
  /** 1 = recorded pace, 2 = twice as fast. Default 1. */
  speed?: number;
  /**
   * Wait as long as the recorded run waited for the person at a held gate point (`--step`,
   * breakpoints). Default false: a point is let go as soon as the events before it have played.
   */
  keepPauses?: boolean;
  /** Start paused (the person steps or presses space). Default false. */
  paused?: boolean;
  timers?: ReplayTimers;
}

/** The player's state, for the header. */
export interface ReplayStatus {
  speed: number;
  paused: boolean;
  /** Events emitted so far. */
  position: number;
  total: number;
  finished: boolean;
}

/** An event source plus the replay controls the keys drive. */
export interface ReplayPlayer {
  /** Delivers past events at once, then later ones as they play; starts playing on first use. */
  subscribe(listener: (event: MissionEvent) => void): () => void;
  pause(): void;
  resume(): void;
  /** Emits the next event now and pauses. */
  step(): void;
  setSpeed(speed: number): void;
  /** Emits every remaining event now. */
  seekEnd(): void;
  status(): ReplayStatus;
  /** Called after every change of status (an event played, pause, speed). */
  onStatus(listener: () => void): () => void;
}

/** Slowest and fastest speeds the keys reach. */
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 64;

const systemClock: ReplayTimers = { ...systemTimers, now: () => Date.now() };

/**
 * Recorded milliseconds between the run's event before `index` and event `index`. The wait
 * before a `gate.resumed` is the person's, not the run's: it counts only with `keepPauses`.
 * A breakpoint change is the person's too: it plays at once and takes no time from the run.
 */
function gapMs(events: readonly MissionEvent[], index: number, keepPauses: boolean): number {
  const next = events[index];
  if (next === undefined || next.type === 'breakpoints.changed') return 0;
  let before = index - 1;
  while (events[before]?.type === 'breakpoints.changed') before -= 1;
  const previous = events[before];
  if (previous === undefined) return 0;
  if (!keepPauses && next.type === 'gate.resumed') return 0;
  const gap = Date.parse(next.time) - Date.parse(previous.time);
  return Number.isFinite(gap) && gap > 0 ? gap : 0;
}

/** Creates a player over a journal's events (in `seq` order). */
export function createReplayPlayer(
  events: readonly MissionEvent[],
  options: ReplayOptions = {},
): ReplayPlayer {
  const timers = options.timers ?? systemClock;
  const listeners = new Set<(event: MissionEvent) => void>();
  const statusListeners = new Set<() => void>();
  let speed = clampSpeed(options.speed ?? 1);
  const keepPauses = options.keepPauses ?? false;
  const waitBefore = (index: number): number => gapMs(events, index, keepPauses) / speed;
  let paused = options.paused ?? false;
  let position = 0;
  let started = false;
  let timer: unknown;
  /** When the pending event is due, in timer time. */
  let dueAt = 0;

  const notifyStatus = (): void => {
    for (const listener of [...statusListeners]) listener();
  };
  const cancelTimer = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  const emitNext = (): void => {
    const event = events[position];
    if (event === undefined) return;
    position += 1;
    for (const listener of [...listeners]) listener(event);
  };
  /** Plays the events due by now; the next one's time counts from when this one was due. */
  const play = (): void => {
    timer = undefined;
    // A screen slower than the recorded pace must not slow the replay down: every event
    // already due plays in this turn, and the status (a repaint) is told once.
    do {
      emitNext();
      dueAt += waitBefore(position);
    } while (position < events.length && dueAt <= timers.now());
    if (position < events.length) timer = timers.setTimeout(play, dueAt - timers.now());
    notifyStatus();
  };
  const schedule = (delay: number): void => {
    cancelTimer();
    if (paused || position >= events.length) return;
    dueAt = timers.now() + delay;
    timer = timers.setTimeout(play, delay);
  };

  return {
    subscribe(listener) {
      for (const event of events.slice(0, position)) listener(event);
      listeners.add(listener);
      if (!started) {
        started = true;
        schedule(0);
      }
      return () => listeners.delete(listener);
    },
    pause() {
      paused = true;
      cancelTimer();
      notifyStatus();
    },
    resume() {
      paused = false;
      schedule(waitBefore(position));
      notifyStatus();
    },
    step() {
      paused = true;
      cancelTimer();
      emitNext();
      notifyStatus();
    },
    setSpeed(next) {
      const previous = speed;
      speed = clampSpeed(next);
      if (timer !== undefined) {
        // The wait already under way shrinks or grows with the new speed.
        const remaining = Math.max(0, dueAt - timers.now());
        schedule((remaining * previous) / speed);
      }
      notifyStatus();
    },
    seekEnd() {
      cancelTimer();
      while (position < events.length) emitNext();
      notifyStatus();
    },
    status: () => ({
      speed,
      paused,
      position,
      total: events.length,
      finished: position >= events.length,
    }),
    onStatus(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },
  };
}

function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed) || speed <= 0) return 1;
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}
