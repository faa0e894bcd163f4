export { agentMachine, DEFAULT_AGENT_MAX_TURNS } from './agent.machine.ts';
export type {
  AgentContext,
  AgentEnvironment,
  AgentInput,
  AgentResult,
  AgentToolInput,
} from './agent.machine.ts';
export { commanderMachine } from './commander.machine.ts';
export type {
  BatchEntry,
  CommanderContext,
  CommanderEvent,
  CommanderFailure,
  CommanderInput,
  CommanderResult,
  CommanderRoute,
  CommanderTask,
  CompletionRecord,
  ExecuteToolInput,
  InternalToolEvent,
  QueuedCall,
  CommanderRuleStart,
  ToolGateInput,
} from './commander-context.ts';
export { EXTERNAL_TOOLS } from './commander-context.ts';
export type {
  MessageAppendedParams,
  OutputSubmittedParams,
  PlanUpdatedParams,
  ToolCalledParams,
  ToolCompletedParams,
} from './effect-params.ts';
export { ActorNotProvidedError } from './effect-params.ts';
export {
  DEFAULT_COMMANDER_MAX_TURNS,
  MAX_NUDGES,
  MAX_OUTPUT_LIMIT_HITS,
} from './commander-context.ts';
export { BE_SHORTER_TEXT, NOT_EXECUTED_TEXT, NUDGE_TEXT } from './commander-answering.ts';
export { datasetCursorMachine, firstItemWithoutOutput } from './dataset-cursor.machine.ts';
export type {
  CursorFacts,
  CursorNextEvent,
  CursorReply,
  DatasetCursorContext,
  DatasetCursorInput,
} from './dataset-cursor.machine.ts';
export { parallelIterationMachine, withItemActor } from './iteration.machine.ts';
export type {
  ItemAttemptInput,
  ItemAttemptOutput,
  ParallelIterationInput,
  ParallelIterationOutput,
} from './iteration-context.ts';
export { sequentialIterationMachine } from './sequential-iteration.machine.ts';
export type {
  SequentialAttemptInput,
  SequentialAttemptOutput,
  SequentialIterationInput,
  SequentialIterationOutput,
} from './sequential-iteration.machine.ts';
export * from './plan.ts';
export type { ModelTurnInput, ModelTurnOutput, ToolOutcome } from './turn-types.ts';
export { reasonOf, resultFor, textOf, toolCallsOf } from './turn-types.ts';
