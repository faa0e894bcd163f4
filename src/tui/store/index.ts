/** The TUI's event store: events in, structurally shared snapshots out. */
export { applyEvents } from './apply.ts';
export { ROOT } from './actor-tree.ts';
export { AppendList } from './append-list.ts';
export { ItemVector } from './item-vector.ts';
export { PersistentMap } from './persistent-map.ts';
export {
  EMPTY_DETAIL,
  initialState,
  type ActorNode,
  type CostRow,
  type CostTables,
  type EventLine,
  type OpenQuestion,
  type RunHeader,
  type TuiState,
  type WarnedBudget,
} from './state.ts';
export { createTuiStore, type TuiStore } from './store.ts';
export { treeRows, windowStart, type TreeRow } from './tree-rows.ts';
