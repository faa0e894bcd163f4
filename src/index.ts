/**
 * `sortie` as a library: open a project with TypeScript functions registered as tools, run
 * one of its missions (or resume a journaled run), follow its events and await its result.
 * docs/decisions.md ("sortie as a package") says what this API includes and why;
 * `sortie/testing` has the scripted model server to test missions with.
 */
export { openProject, type Project, type ProjectOptions } from './run/project.ts';
export {
  type FinalStatus,
  type HumanListAnswer,
  type MissionRun,
  type MissionRunOptions,
  type ResumeOptions,
  type RunResult,
  type RunResultJson,
  type RunSettings,
  type TaskResult,
} from './run/mission-run.ts';
export { resumeMission, runMission } from './observe/library-runs.ts';
export {
  defineFunctionTool,
  type FunctionToolContext,
  type JsonSchemaObject,
  type SortieTool,
  type StandardSchemaLike,
  type ToolInputSchema,
} from './tools/functions/index.ts';
export { runEval, type EvalOptions, type EvalProgress } from './eval/run-eval.ts';
export type { EvalReport, RunRecord } from './eval/report-types.ts';
export type { ScorerFunction } from './eval/scorers/score-run.ts';
export type { RunFacts } from './eval/run-facts.ts';
export type { MissionEvent, MissionEventType, GatePoint } from './base/events.ts';
export type { StepGate } from './runtime/gate.ts';
export type { AskedQuestion, HumanAnswerer, HumanReply } from './runtime/human-desk.ts';
export type { ScriptedAnswer } from './runtime/answer-script.ts';
export type { ModelClientFactory } from './models/create-client.ts';
export { ConfigError, SortieError, UsageError, type Diagnostic } from './base/errors.ts';
export { ProjectNotFoundError, formatDiagnostic } from './config/syntax/index.ts';
