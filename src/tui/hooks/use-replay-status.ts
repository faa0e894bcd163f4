/** The replay player's status (speed, paused, position), re-rendered on every change. */
import { useMemo, useRef, useSyncExternalStore } from 'react';
import type { ReplayPlayer, ReplayStatus } from '../replay-player.ts';

/** The status, or null outside replay mode. */
export function useReplayStatus(player: ReplayPlayer | undefined): ReplayStatus | null {
  const snapshot = useRef<ReplayStatus | null>(player?.status() ?? null);
  const subscribe = useMemo(
    () => (listener: () => void) => {
      if (player === undefined) return () => undefined;
      // Catch up with changes made between the render and this subscription.
      snapshot.current = player.status();
      return player.onStatus(() => {
        snapshot.current = player.status();
        listener();
      });
    },
    [player],
  );
  return useSyncExternalStore(subscribe, () => snapshot.current);
}
