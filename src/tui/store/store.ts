/**
 * The external store the Ink app reads through `useSyncExternalStore`. Events are queued as
 * they arrive and folded in one batch at most `intervalMs` apart (50 ms: at most 20 repaints
 * a second), so a burst of streamed deltas costs one repaint, not hundreds.
 */
import { systemTimers, type Timers } from '../../base/abort.ts';
import type { MissionEvent } from '../../base/events.ts';
import { applyEvents } from './apply.ts';
import { initialState, type TuiState } from './state.ts';
import { terminalSafeEvent } from '../../present/terminal-text.ts';

/** The timer functions and the clock the store uses; tests pass fakes. */
export type StoreTimers = Timers & { now: () => number };

export interface TuiStoreOptions {
  /** Minimum time between two published snapshots. Default 50 ms. */
  intervalMs?: number;
  timers?: StoreTimers;
}

/** Events in, snapshots out. */
export interface TuiStore {
  /** The last published snapshot (stable between notifications). */
  getState(): TuiState;
  subscribe(listener: () => void): () => void;
  /** Queues an event; it shows in the next published snapshot. */
  dispatch(event: MissionEvent): void;
  /** Publishes queued events now. */
  flush(): void;
  /** Drops the pending timer; later events are still folded on `flush`. */
  dispose(): void;
}

const systemClock: StoreTimers = { ...systemTimers, now: () => Date.now() };

/** Creates a store; `initial` lets tests and benchmarks start from a prepared snapshot. */
export function createTuiStore(options: TuiStoreOptions = {}, initial?: TuiState): TuiStore {
  const intervalMs = options.intervalMs ?? 50;
  const timers = options.timers ?? systemClock;
  const listeners = new Set<() => void>();
  let state = initial ?? initialState();
  let queue: MissionEvent[] = [];
  let timer: unknown;
  let lastPublish = Number.NEGATIVE_INFINITY;
  let disposed = false;

  const publish = (): void => {
    timer = undefined;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    state = applyEvents(state, batch);
    lastPublish = timers.now();
    for (const listener of [...listeners]) listener();
  };

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispatch(event) {
      // Escaped on the way in: every tab shows event text, so it is done once, here.
      queue.push(terminalSafeEvent(event));
      if (timer !== undefined || disposed) return;
      const wait = Math.max(0, lastPublish + intervalMs - timers.now());
      timer = timers.setTimeout(publish, wait);
    },
    flush() {
      if (timer !== undefined) timers.clearTimeout(timer);
      publish();
    },
    dispose() {
      disposed = true;
      if (timer !== undefined) timers.clearTimeout(timer);
      timer = undefined;
    },
  };
}
