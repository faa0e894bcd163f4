/**
 * Exporters fed by a run's events (OpenTelemetry traces). Import `settings.ts` to decide; this
 * index loads the OpenTelemetry SDK, so it is imported dynamically and only when enabled.
 */
export { openTraceExport, type TraceSink } from './trace-export.ts';
export { exportJournal } from './journal-export.ts';
export { TraceBuilder, type TraceBuilderOptions } from './trace-builder.ts';
export { PresetIds, sessionTraceId, spanIdOf } from './span-ids.ts';
export { openJobTraces, type JobTraces } from './job-traces.ts';
