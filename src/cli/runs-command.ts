import type { RegisterCommand } from './commands.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { useColor } from './io.ts';

/**
 * `sortie runs [DIR]`: past runs with id, mission, status, start, duration, tokens and cost —
 * of the project DIR (or `--state-dir`), else of the run index and the current folder, with
 * the project each was started from.
 */
export const registerRuns: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('runs')
    .description('list past runs: id, mission, status, start, duration, tokens, cost')
    .argument(
      '[DIR]',
      'project directory (its .sortie/ holds the runs; default: every run indexed)',
    )
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .action(async (directory: string | undefined, options: { stateDir?: string }) => {
      const { stateDirFor } = await import('./state-dir.ts');
      const { listRuns, listRunsAt } = await import('../journal/runs.ts');
      const { formatRunsTable } = await import('./runs-text.ts');
      const stateDir = stateDirFor(directory ?? '.', options.stateDir, io);
      let rows;
      if (directory !== undefined || options.stateDir !== undefined) {
        rows = await listRuns(stateDir);
      } else {
        const { knownRuns } = await import('../run/find-run.ts');
        const { runIndexPath } = await import('../journal/run-index.ts');
        rows = await listRunsAt([...(await knownRuns(stateDir, runIndexPath(io.env))).values()]);
      }
      io.stdout(formatRunsTable(rows, { color: useColor(io, 'stdout'), cwd: process.cwd() }));
      setExitCode(ExitCode.ok);
    });
};

/** `sortie show RUN_ID [DIR]`: a run's summary (tasks, outputs, costs) from its journal. */
export const registerShow: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('show')
    .description("show a run's summary: tasks, outputs, costs (an unambiguous id prefix works)")
    .argument('<RUN_ID>', 'the run (see sortie runs)')
    .argument('[DIR]', 'project directory (its .sortie/ holds the runs)', '.')
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .action(async (runId: string, directory: string, options: { stateDir?: string }) => {
      const { stateDirFor } = await import('./state-dir.ts');
      const { findRun } = await import('../run/find-run.ts');
      const { loadRunSummary } = await import('../journal/runs.ts');
      const { formatRunSummary } = await import('./runs-text.ts');
      stateDirFor(directory, options.stateDir, io);
      const search = { stateDir: options.stateDir, directory, env: io.env };
      const run = await findRun(runId, search);
      const summary = await loadRunSummary(run.stateDir, run.runId);
      io.stdout(formatRunSummary(summary, { color: useColor(io, 'stdout') }));
      setExitCode(ExitCode.ok);
    });
};

/** `sortie diff RUN_A RUN_B [DIR]`: where two runs' conversations part and what differs after. */
export const registerDiff: RegisterCommand = (program, io, setExitCode) => {
  program
    .command('diff')
    .description("show where two runs' conversations part, per actor, and what differs after")
    .argument('<RUN_A>', 'the first run (an unambiguous id prefix works; from any folder)')
    .argument('<RUN_B>', 'the second run, e.g. a fork of the first')
    .argument('[DIR]', 'project directory (its .sortie/ holds the runs)', '.')
    .option('--state-dir <DIR>', 'where runs are kept (default: SORTIE_HOME or <project>/.sortie)')
    .action(
      async (runA: string, runB: string, directory: string, options: { stateDir?: string }) => {
        const { stateDirFor } = await import('./state-dir.ts');
        const { findRun } = await import('../run/find-run.ts');
        const { readJournal } = await import('../journal/reader.ts');
        const { diffRuns } = await import('../journal/run-diff.ts');
        const { formatRunDiff } = await import('./diff-text.ts');
        stateDirFor(directory, options.stateDir, io);
        const search = { stateDir: options.stateDir, directory, env: io.env };
        const runs = [await findRun(runA, search), await findRun(runB, search)] as const;
        const [a, b] = await Promise.all(
          runs.map(async (run) => (await readJournal(run.journal)).events),
        );
        io.stdout(formatRunDiff(diffRuns(a ?? [], b ?? []), runs[0].runId, runs[1].runId));
        setExitCode(ExitCode.ok);
      },
    );
};
