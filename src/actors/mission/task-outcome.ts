/** The task outcome type lives with the task machine; the wiring builds it. */
export { failedOutcome } from '../../machines/task-outcome.ts';
export type { TaskItemRecord, TaskOutcome } from '../../machines/task-outcome.ts';
