import type { MissionEvent } from '../base/events.ts';

/** Events of a run for a listener that attaches later than the run's first event. */
export interface EventHub {
  /** Give to `RunOptions.subscribers`. */
  publish(event: MissionEvent): void;
  /** Delivers the events held so far, then every new one; returns the remover. */
  subscribe(listener: (event: MissionEvent) => void): () => void;
}

/**
 * The TUI mounts after `startRun` has emitted its first events; the hub holds them until a
 * listener attaches, then passes events straight through (so it keeps no history after).
 */
export function createEventHub(): EventHub {
  let held: MissionEvent[] | undefined = [];
  const listeners = new Set<(event: MissionEvent) => void>();
  return {
    publish(event) {
      if (held !== undefined) held.push(event);
      for (const listener of [...listeners]) listener(event);
    },
    subscribe(listener) {
      for (const event of held ?? []) listener(event);
      held = undefined;
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
