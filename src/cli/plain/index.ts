/** The plain line log: one line per meaningful event, then a summary of tasks, outputs and costs. */
export {
  createPlainPrinter,
  type PlainPrinter,
  type PlainPrinterOptions,
} from './plain-printer.ts';
export { formatEventLine, logContext, missionTotals } from './format-event-line.ts';
export {
  createLogState,
  observeEvent,
  type LogState,
  type TaskLine,
  type ModelSpend,
} from './log-state.ts';
export { summaryLines } from './run-summary.ts';
