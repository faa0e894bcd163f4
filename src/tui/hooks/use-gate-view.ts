/**
 * The debug gate as the screen needs it: paused, held points, breakpoints. The gate notifies
 * on holds and releases only; `refresh` is called after the app's own commands (pause,
 * toggling a breakpoint), which change the gate without a notice.
 */
import { useCallback, useMemo, useRef, useSyncExternalStore } from 'react';
import type { GateControls, GatePoint } from '../../runtime/gate.ts';

/** A snapshot of the gate. */
export interface GateView {
  paused: boolean;
  held: readonly GatePoint[];
  breakpoints: readonly string[];
}

const NO_GATE: GateView = { paused: false, held: [], breakpoints: [] };

function snapshotOf(gate: GateControls): GateView {
  return { paused: gate.isPaused, held: gate.held(), breakpoints: gate.list() };
}

/** The gate's snapshot and a function to re-read it. */
export function useGateView(gate: GateControls | undefined): {
  view: GateView;
  refresh: () => void;
} {
  const snapshot = useRef<GateView>(gate === undefined ? NO_GATE : snapshotOf(gate));
  const listeners = useRef(new Set<() => void>());
  const refresh = useCallback(() => {
    if (gate === undefined) return;
    snapshot.current = snapshotOf(gate);
    for (const listener of [...listeners.current]) listener();
  }, [gate]);
  const subscribe = useMemo(
    () => (listener: () => void) => {
      // Catch up with changes made between the render and this subscription.
      if (gate !== undefined) snapshot.current = snapshotOf(gate);
      listeners.current.add(listener);
      const stop = gate?.onNotice(() => refresh());
      return () => {
        listeners.current.delete(listener);
        stop?.();
      };
    },
    [gate, refresh],
  );
  const view = useSyncExternalStore(subscribe, () => snapshot.current);
  return { view, refresh };
}
