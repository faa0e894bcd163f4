/** Reads the store's current snapshot and re-renders when a new one is published. */
import { useSyncExternalStore } from 'react';
import type { TuiState, TuiStore } from '../store/index.ts';

/** The latest published snapshot of `store`. */
export function useTuiState(store: TuiStore): TuiState {
  return useSyncExternalStore(store.subscribe, store.getState);
}
