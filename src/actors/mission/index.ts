/** The mission wiring: task work, iteration strategies and the mission run. */
export {
  ancestorsOf,
  createMissionRuntime,
  isCompletedTask,
  MissingTaskError,
  missionGraph,
  taskConfig,
} from './mission-runtime.ts';
export type { MissionRuntime } from './mission-runtime.ts';
export { missionEffects, TaskResults } from './mission-effects.ts';
export { runParallelTask } from './parallel-task.ts';
export { commanderError, runPlainTask } from './plain-task.ts';
export { missionTaskSpecs, runMission } from './run-mission.ts';
export type { MissionRunResult, RunMissionOptions } from './run-mission.ts';
export { runSequentialTask } from './sequential-task.ts';
export { failedOutcome } from '../../machines/task-outcome.ts';
export type { TaskItemRecord, TaskOutcome } from '../../machines/task-outcome.ts';
export { commanderScope, objectiveText, prepareTask } from './task-preparation.ts';
export type { PreparedTask } from './task-preparation.ts';
export { emptyDatasetSummary, runTaskWork } from './task-work.ts';
export { checkedInputs, checkVariables, missionOf } from './run-checks.ts';
