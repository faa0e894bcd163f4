/**
 * `sortie export RUN_ID --otlp [URL]`: the run's journal through the span builder of a live
 * export, sent to an OTLP endpoint. Exits 1 when the spans could not all be sent.
 */
import { UsageError } from '../base/errors.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { findRun } from '../run/find-run.ts';
import { traceSettingsOf } from '../observe/settings.ts';
import type { ExportFlags } from './export.ts';
import type { CliIo } from './io.ts';
import { stateDirFor } from './state-dir.ts';

/** What `sortie export` was given. */
export interface ExportRequest {
  runId: string;
  directory: string;
  flags: ExportFlags;
}

/** Exports a journaled run; returns the exit code. */
export async function exportCommand(request: ExportRequest, io: CliIo): Promise<number> {
  const { flags } = request;
  if (flags.otlp === undefined) {
    throw new UsageError('sortie export needs --otlp [URL]: the OTLP endpoint to send the run to');
  }
  let warned = false;
  const warn = (message: string): void => {
    warned = true;
    io.stderr(`warning: ${message}\n`);
  };
  const settings = traceSettingsOf(io.env, flags.otlp === true ? undefined : flags.otlp, warn);
  if (settings === undefined) {
    throw new UsageError(
      'sortie export --otlp: give the endpoint (--otlp URL) or set OTEL_EXPORTER_OTLP_ENDPOINT',
    );
  }
  stateDirFor(request.directory, flags.stateDir, io);
  const search = { stateDir: flags.stateDir, directory: request.directory, env: io.env };
  const run = await findRun(request.runId, search);
  const { exportJournal } = await import('../observe/index.ts');
  const sent = await exportJournal(run.journal, settings, warn);
  const traces = sent.traces === 1 ? '1 trace' : `${sent.traces} traces`;
  io.stdout(`run ${run.runId}: ${sent.events} events as ${traces} to ${settings.destination}\n`);
  return warned ? ExitCode.missionFailed : ExitCode.ok;
}
