/**
 * The trace export of `sortie run`, `resume` and `fork`, when the OpenTelemetry variables or
 * `--otel` ask for one. The exporter is imported only then: a run without them loads no
 * OpenTelemetry code. A continued run's journal is read first, so its trace links to its
 * earlier part (or, for a fork, to its parent at the fork point).
 */
import type { RunJournalState } from '../journal/restore.ts';
import { runPaths } from '../journal/paths.ts';
import { traceSettingsOf } from '../observe/settings.ts';
import type { TraceSink } from '../observe/index.ts';
import type { CliIo } from './io.ts';

/** The run's trace sink, or undefined when traces are not asked for. */
export async function openRunTraces(
  otelFlag: string | undefined,
  io: CliIo,
  stateDir: string,
  resume: RunJournalState | undefined,
): Promise<TraceSink | undefined> {
  const warn = (message: string): void => io.stderr(`warning: ${message}\n`);
  const settings = traceSettingsOf(io.env, otelFlag, warn);
  if (settings === undefined) return undefined;
  const { openTraceExport } = await import('../observe/index.ts');
  const sink = openTraceExport(settings, warn);
  if (resume !== undefined) {
    const { readJournal } = await import('../journal/reader.ts');
    const { events } = await readJournal(runPaths(stateDir, resume.runId).journal);
    for (const event of events) sink.remember(event);
  }
  return sink;
}
