import type { RegisterCommand } from './commands.ts';

/** The flags of `sortie export`. */
export interface ExportFlags {
  /** `--otlp` alone: the endpoint from OTEL_EXPORTER_OTLP_ENDPOINT; `--otlp URL`: that one. */
  otlp?: string | true;
  stateDir?: string;
}

/** `sortie export RUN_ID [DIR] --otlp [URL]`: send a journaled run as OpenTelemetry traces. */
export const registerExport: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('export')
    .description('send a journaled run as OpenTelemetry traces (the spans a live export sends)')
    .argument('<RUN_ID>', 'the run (an unambiguous id prefix works; from any folder)')
    .argument('[DIR]', 'project directory (its .sortie/ holds the runs)', '.')
    .option('--otlp [URL]', 'to this OTLP endpoint (default: OTEL_EXPORTER_OTLP_ENDPOINT)')
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .action(async (runId: string, directory: string, flags: ExportFlags) => {
      const { exportCommand } = await import('./export-command.ts');
      setExitCode(await exportCommand({ runId, directory, flags }, io));
    });
};
