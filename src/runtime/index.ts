/** Plain services the machines and actors call: events, stores, budgets, the step gate, the task graph. */
export { abortError, isAbortError, systemTimers, type Timers } from '../base/abort.ts';
export {
  BUDGET_WARNING_RATIO,
  BudgetTracker,
  budgetError,
  budgetTokens,
  type BudgetBreach,
  type BudgetCheck,
  type BudgetLimits,
  type BudgetSignal,
} from './budget.ts';
export {
  EventBus,
  type EventBusOptions,
  type EventListener,
  type SubscriberErrorHandler,
} from './event-bus.ts';
export {
  actorId,
  isJournaled,
  parseActorId,
  type BudgetAmounts,
  type BudgetMetric,
  type BudgetScope,
  type EventEnvelope,
  type EventInput,
  type EventOf,
  type EventPayloads,
  type GatePauseReason,
  type GateResumeHow,
  type MissionEvent,
  type MissionEventType,
  type ModelReference,
  type ModelTotals,
  type Outcome,
  type ParsedActorId,
  type RouteActivation,
  type RunTotals,
  type SkipReason,
  type Subtask,
} from '../base/events.ts';
export {
  DebugGate,
  breakpointMatches,
  formatBreakpoint,
  openGate,
  parseBreakpoint,
  type Breakpoint,
  type DebugGateOptions,
  type GateControls,
  type GateNotice,
  type GatePoint,
  type StepGate,
} from './gate.ts';
export {
  KnowledgeStore,
  itemIdOf,
  iteratedSummary,
  type IterationRecord,
  type TaskKnowledge,
  type ToolResultObject,
} from './knowledge-store.ts';
export { AGGREGATE_OPS, GROUP_OPS, type QueryAggregate } from './query-aggregate.ts';
export {
  FILTER_OPS,
  QueryArgumentError,
  type FilterOp,
  type QueryFilter,
} from './query-filters.ts';
export {
  DEFAULT_QUERY_LIMIT,
  MAX_QUERY_LIMIT,
  queryKnowledge,
  queryRecords,
  type QueryContext,
  type QueryTaskOutputArgs,
} from './query-task-output.ts';
export {
  DEFAULT_ANSWER_WAIT_MS,
  QuestionStateError,
  QuestionStore,
  type QuestionRecord,
} from './question-store.ts';
export { redactSecrets } from './redact-secrets.ts';
export { SerialQueue } from './serial-queue.ts';
export {
  ActivationLedger,
  TaskCycleError,
  TaskGraph,
  isFinished,
  type ActivationOutcome,
  type TaskNode,
  type TaskStates,
  type TaskStatus,
  type Unreachable,
} from './task-graph.ts';
