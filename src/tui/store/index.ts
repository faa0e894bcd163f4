/** The TUI's event store: events in, structurally shared snapshots out. */
export { applyEvents } from './apply.ts';
export { ROOT } from './actor-tree.ts';
export { AppendList } from './append-list.ts';
export { ItemVector } from './item-vector.ts';
export { modelKey, taskOfActor } from './reduce-costs.ts';
export { PersistentMap } from './persistent-map.ts';
export { toolActivity } from './reduce-activity.ts';
export {
  EMPTY_DETAIL,
  emptyCostRow,
  initialState,
  type ActorDetail,
  type ActorKind,
  type ActorNode,
  type ActorStatus,
  type ConversationMessage,
  type CostRow,
  type CostTables,
  type EventLine,
  type EventLog,
  type ItemOutput,
  type ItemStats,
  type OpenQuestion,
  type IterationProgress,
  type RunHeader,
  type TaskOutput,
  type ToolCallRecord,
  type TuiState,
  type WarnedBudget,
} from './state.ts';
export { createTuiStore, type StoreTimers, type TuiStore, type TuiStoreOptions } from './store.ts';
export { treeRows, windowStart, type TreeRow } from './tree-rows.ts';
