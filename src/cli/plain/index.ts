/** The plain line log: one line per meaningful event, then a summary of tasks, outputs and costs. */
export { createPlainPrinter, type PlainPrinter } from './plain-printer.ts';
export { formatEventLine } from './format-event-line.ts';
export { createLogState, observeEvent } from './log-state.ts';
