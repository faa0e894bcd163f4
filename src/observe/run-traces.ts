/**
 * The one place a run's trace export is decided and opened, for `sortie run`, `resume`, `fork`,
 * `serve` and the library: the OpenTelemetry variables or an explicit endpoint decide
 * (settings.ts); the exporter is imported only then, so a run without them loads no
 * OpenTelemetry code. A continued run's journal is read first, so its trace links to its
 * earlier part (or, for a fork, to its parent at the fork point).
 */
import type { RunJournalState } from '../journal/restore.ts';
import type { RunSettings, RunTracesOpener } from '../run/execute-mission-run.ts';
import { runPaths } from '../journal/paths.ts';
import { traceSettingsOf } from './settings.ts';
import type { TraceSink } from './trace-export.ts';

/** What decides a run's trace export. */
export interface RunTracesRequest {
  env: Record<string, string | undefined>;
  /** An explicit OTLP endpoint (`--otel URL`, the library's `otel: { url }`). */
  url?: string;
  /** Hears the one warning line traces may cost. */
  warn: (message: string) => void;
  stateDir: string;
  /** The journaled run this run continues, if any. */
  resume?: RunJournalState;
}

/** The run's trace sink, or undefined when traces are not asked for. */
export async function openRunTraces(request: RunTracesRequest): Promise<TraceSink | undefined> {
  const settings = traceSettingsOf(request.env, request.url, request.warn);
  if (settings === undefined) return undefined;
  const { openTraceExport } = await import('./trace-export.ts');
  const sink = openTraceExport(settings, request.warn);
  if (request.resume !== undefined) {
    const { readJournal } = await import('../journal/reader.ts');
    const { events } = await readJournal(runPaths(request.stateDir, request.resume.runId).journal);
    for (const event of events) sink.remember(event);
  }
  return sink;
}

/** The endpoint OTLP/HTTP exporters use when none is set. */
const OTLP_DEFAULT_ENDPOINT = 'http://localhost:4318';

/**
 * The trace opener of a library or served run: `otel` as the library's option (`sortie serve
 * --otel URL` gives `{ url }`), the variables of `env` otherwise; `warn` hears the one line.
 */
export function runTracesOpener(
  otel: RunSettings['otel'],
  env: Record<string, string | undefined>,
  warn: (message: string) => void,
): RunTracesOpener {
  return (stateDir, resume) => {
    if (otel === false) return Promise.resolve(undefined);
    const named =
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
    const url =
      typeof otel === 'object'
        ? otel.url
        : otel === true && !named
          ? OTLP_DEFAULT_ENDPOINT
          : undefined;
    return openRunTraces({
      env,
      ...(url !== undefined ? { url } : {}),
      warn,
      stateDir,
      ...(resume !== undefined ? { resume } : {}),
    });
  };
}
