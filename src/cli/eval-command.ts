/**
 * `sortie eval`: opens the project, runs each eval named (or all) through runEval, prints a
 * line per run and the report, writes `--json` and `--junit`, marks regressions against
 * `--compare`, and exits 0 when every case meets its threshold, 1 when one does not, 2 on a
 * usage or configuration problem (thrown, printed by printFailure), 130 when interrupted.
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import { ExitCode } from '../base/exit-codes.ts';
import { ProjectConfigError } from '../config/load-project.ts';
import { requireVariables } from '../config/requirements.ts';
import { analyzeEvals } from '../eval/definition/load-evals.ts';
import { compareReports, readPreviousReport } from '../eval/compare.ts';
import { junitXml } from '../eval/report-junit.ts';
import type { EvalReport } from '../eval/report-types.ts';
import { runEval } from '../eval/run-eval.ts';
import { modelJudge } from '../eval/scorers/judge.ts';
import { openProject } from '../run/project.ts';
import type { EvalFlags } from './eval.ts';
import { evalProgressView } from './eval-progress.ts';
import { reportText } from './eval-text.ts';
import { handleInterrupts, type SignalSource } from './interrupts.ts';
import type { CliIo } from './io.ts';
import { chooseOutputMode } from './output-mode.ts';
import { recordingStateDir } from './state-dir.ts';
import { checkDeclaredVariables, parseVarFlags } from './var-flags.ts';

/** What `sortie eval` was given. */
export interface EvalRequest {
  directory: string;
  names: string[];
  flags: EvalFlags;
}

/** Runs the evals; returns the exit code. */
export async function evalCommand(
  request: EvalRequest,
  io: CliIo,
  signals: SignalSource = process,
  cwd: string = process.cwd(),
): Promise<number> {
  const { flags } = request;
  const numbers = numberFlags(flags);
  if (flags.record !== undefined && flags.replayModel !== undefined) {
    throw new UsageError('--record and --replay-model cannot be used together');
  }
  const vars = parseVarFlags(flags.var ?? []);
  const project = await openProject(resolve(cwd, request.directory), { vars, env: io.env });
  if (!project.ok) {
    throw new ProjectConfigError([...project.diagnostics], project.root, new Map(project.sources));
  }
  checkDeclaredVariables(vars, project.config.variables.keys());
  const evals = await evalsToRun(project.config, request.names, flags);
  const previous =
    flags.compare === undefined ? undefined : await readPreviousReport(flags.compare);
  const stateDir = await recordingStateDir(flags.stateDir, io.env, project.root, cwd);
  const controller = new AbortController();
  const interrupts = handleInterrupts(
    () => controller.abort(),
    () => process.exit(ExitCode.cancelled),
    signals,
  );
  // runEval gives the judge its clients for a mock model, a recording or a replay.
  const judge = modelJudge(project.config);
  const live = chooseOutputMode({ plain: flags.plain === true }, io) === 'tui';
  const reports: EvalReport[] = [];
  const indexed: Array<Promise<void>> = [];
  try {
    for (const { name, mission } of evals) {
      if (controller.signal.aborted) break;
      const view = await evalProgressView(
        io,
        live,
        { name, mission, stateDir, project: project.root },
        indexed,
      );
      const report = await runEval(project, {
        name,
        vars,
        env: io.env,
        stateDir,
        judge,
        signal: controller.signal,
        ...numbers,
        ...(flags.variant !== undefined ? { variants: flags.variant } : {}),
        ...(flags.case !== undefined ? { cases: flags.case } : {}),
        ...(flags.record !== undefined ? { record: resolve(cwd, flags.record) } : {}),
        ...(flags.replayModel !== undefined
          ? { replayModel: resolve(cwd, flags.replayModel) }
          : {}),
        ...(flags.mockModel !== undefined ? { mockModel: resolve(cwd, flags.mockModel) } : {}),
        onProgress: (progress) => view.show(progress),
      }).finally(() => view.close());
      const compared = previous === undefined ? report : compareReports(report, previous);
      reports.push(compared);
      io.stdout(`\n${reportText(compared)}`);
    }
  } finally {
    interrupts.dispose();
    await Promise.all(indexed);
  }
  if (controller.signal.aborted) {
    io.stderr('eval interrupted: run the same command again to go on with the runs not finished\n');
    return ExitCode.cancelled;
  }
  const passed = reports.every((report) => report.passed);
  if (flags.json !== undefined) {
    const document = { version: 1, passed, evals: reports };
    await writeFile(resolve(cwd, flags.json), `${JSON.stringify(document, null, 2)}\n`);
  }
  if (flags.junit !== undefined) await writeFile(resolve(cwd, flags.junit), junitXml(reports));
  return passed ? ExitCode.ok : ExitCode.missionFailed;
}

/** The evals to run: those named, else every eval of the project; their variables checked. */
async function evalsToRun(
  config: Parameters<typeof analyzeEvals>[0],
  requested: readonly string[],
  flags: EvalFlags,
): Promise<Array<{ name: string; mission: string }>> {
  const analysis = await analyzeEvals(config);
  if (analysis.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
    throw new ProjectConfigError(analysis.diagnostics, config.root, analysis.sources);
  }
  const all = analysis.evals.map((definition) => definition.name);
  if (all.length === 0) {
    throw new UsageError(`no evals in ${config.root}/.evals: write one as docs/eval.md shows`);
  }
  const names = requested.length === 0 ? all : [...requested];
  const credentials = flags.mockModel === undefined && flags.replayModel === undefined;
  const chosen: Array<{ name: string; mission: string }> = [];
  for (const name of names) {
    const definition = analysis.evals.find((item) => item.name === name);
    if (definition === undefined) {
      const { didYouMean } = await import('../base/suggest.ts');
      throw new UsageError(`no eval "${name}"${didYouMean(name, all)}`);
    }
    try {
      requireVariables(config, definition.mission, { credentials });
    } catch (error) {
      if (error instanceof ProjectConfigError || !(error instanceof Error)) throw error;
      if ('diagnostics' in error) {
        const diagnostics = (error as ProjectConfigError).diagnostics;
        throw new ProjectConfigError(diagnostics, config.root, analysis.sources);
      }
      throw error;
    }
    chosen.push({ name, mission: definition.mission });
  }
  return chosen;
}

/** `--repeat`, `--concurrency`, `--max-cost` as numbers; anything else is a usage error. */
function numberFlags(flags: EvalFlags): {
  repeat?: number;
  concurrency?: number;
  maxCostDollars?: number;
} {
  const whole = (flag: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const value = Number(text);
    if (Number.isInteger(value) && value >= 1) return value;
    throw new UsageError(`${flag} ${text}: expected a whole number of 1 or more`);
  };
  const repeat = whole('--repeat', flags.repeat);
  const concurrency = whole('--concurrency', flags.concurrency);
  let maxCostDollars: number | undefined;
  if (flags.maxCost !== undefined) {
    maxCostDollars = Number(flags.maxCost.replace(/^\$/, ''));
    if (!Number.isFinite(maxCostDollars) || maxCostDollars < 0) {
      throw new UsageError(`--max-cost ${flags.maxCost}: expected dollars, such as 0.50`);
    }
  }
  return {
    ...(repeat !== undefined ? { repeat } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(maxCostDollars !== undefined ? { maxCostDollars } : {}),
  };
}
