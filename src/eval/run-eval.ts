/**
 * `runEval`: runs an eval of an opened project — every variant × case × repeat as an ordinary
 * journaled run through `runMission` (the wiring `sortie run` uses), `concurrency` at a time —
 * scores each run from its journal and builds the report. A state file lets the same eval go
 * on after a crash with the runs not yet finished (eval-state.ts).
 */
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { UsageError } from '../base/errors.ts';
import { stateDirectoryOf } from '../run/execute-mission-run.ts';
import { loadMockModel, type MockModel } from '../models/mock/mock-file.ts';
import { mockModelClients } from '../models/mock/mock-clients.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import { runMission } from '../run/mission-run.ts';
import type { Project } from '../run/project.ts';
import { createRunRedactor } from '../run/run-redactor.ts';
import { analyzeEvals } from './definition/load-evals.ts';
import type { EvalDefinition, EvalVariant, PlacedExpectation } from './definition/eval-types.ts';
import { planEval, type EvalSlot, type PlanChoices } from './eval-plan.ts';
import { EvalState, evalFingerprint } from './eval-state.ts';
import { buildReport } from './report.ts';
import type { EvalReport, RunRecord } from './report-types.ts';
import { readRunFacts, type RunFacts } from './run-facts.ts';
import { judgeClients } from './judge-cassette.ts';
import { runPool } from './run-pool.ts';
import { slotCassette } from './slot-cassettes.ts';
import { scoreRun, type Judge, type ScorerFunction } from './scorers/score-run.ts';
import { variantProject, type ProjectSettings } from './variant-project.ts';

/** What an eval run reports while it goes. */
export type EvalProgress =
  | {
      type: 'planned';
      eval: string;
      mission: string;
      variants: string[];
      /** The cases in the table's order, each with the share of its runs that must pass. */
      cases: Array<{ name: string; passRate: number }>;
      repeat: number;
      slots: number;
      resumed: string[];
    }
  | { type: 'started'; key: string; runId: string }
  | { type: 'scored'; run: RunRecord }
  | { type: 'stopped'; notRun: string[]; reason: string };

/** How to run an eval. */
export interface EvalOptions extends PlanChoices, ProjectSettings {
  /** The eval to run; may be left out when the project has only one. */
  name?: string;
  concurrency?: number;
  /** Where runs are journaled (default: `SORTIE_HOME`, else `.sortie/` in the project). */
  stateDir?: string;
  /** Stop starting runs once the runs so far cost this many dollars. */
  maxCostDollars?: number;
  /** Record one cassette per run into this folder (`VARIANT/CASE/REPEAT.jsonl`). */
  record?: string;
  /** Answer every run from the cassettes of this folder, as `record` wrote them. */
  replayModel?: string;
  /** Answer every model request from this mock-model file. */
  mockModel?: string;
  /** Scorers written in TypeScript, checked on every run after the eval's expectations. */
  scorers?: readonly ScorerFunction[];
  /** Judges `expect "judge"` (the CLI's asks the project's model). */
  judge?: Judge;
  signal?: AbortSignal;
  onProgress?: (progress: EvalProgress) => void;
}

/** Runs an eval of a project and resolves with its report. */
export async function runEval(project: Project, options: EvalOptions = {}): Promise<EvalReport> {
  const definition = await findEval(project, options.name);
  const plan = planEval(definition, options);
  const stateDir = await stateDirectoryOf(project, options);
  const fingerprint = evalFingerprint([
    definition.name,
    [...project.sources],
    await evalSources(project),
    plan.slots.map((slot) => slot.key),
    options.vars ?? {},
    options.mockModel ?? null,
    options.replayModel ?? null,
    options.record ?? null,
  ]);
  const state = await EvalState.open(stateDir, definition.name, fingerprint);
  const projects = new Map<string, Promise<Project>>();
  const projectOf = (variant: EvalVariant): Promise<Project> => {
    let found = projects.get(variant.name);
    if (found === undefined) {
      found = variantProject(project, variant, options);
      projects.set(variant.name, found);
    }
    return found;
  };
  let mockFile: Promise<MockModel> | undefined;
  // The mock-model file answers the judges too: loaded once, with fresh clients for each run,
  // so every run's judge takes its answers from the first, like the run's own actors.
  const answering = async (): Promise<ModelClientFactory | undefined> => {
    if (options.mockModel === undefined) return undefined;
    mockFile ??= loadMockModel(options.mockModel);
    return mockModelClients(await mockFile);
  };
  const records: RunRecord[] = [];
  const resumed = plan.slots.filter((slot) => state.finished.has(slot.key));
  options.onProgress?.({
    type: 'planned',
    eval: definition.name,
    mission: definition.mission,
    variants: plan.variants.map((variant) => variant.name),
    cases: plan.cases.map(({ name, passRate }) => ({ name, passRate })),
    repeat: plan.repeat,
    slots: plan.slots.length,
    resumed: resumed.map((slot) => slot.key),
  });
  const scoreSlot = async (slot: EvalSlot, runId: string, wasResumed: boolean): Promise<void> => {
    const variant = await projectOf(slot.variant);
    const mission = variant.config.missions.get(definition.mission);
    if (mission === undefined) throw new UsageError(`no mission "${definition.mission}"`);
    const facts = await readRunFacts(stateDir, runId);
    const expectations = withRunStatus(definition, [
      ...definition.expectations,
      ...slot.evalCase.expectations,
    ]);
    const judged = expectations.some(({ expectation }) => expectation.kind === 'judge');
    const mock = judged ? await answering() : undefined;
    const judging = judged
      ? await judgeClients({
          ...(await slotCassette(options, slot)),
          ...(mock !== undefined ? { answering: mock } : {}),
          redact: createRunRedactor(variant.config, [{ mission, inputs: slot.evalCase.inputs }]),
        })
      : undefined;
    const results = await scoreRun(expectations, facts, {
      mission,
      ...(options.judge !== undefined ? { judge: options.judge } : {}),
      ...(judging?.clients !== undefined ? { judgeClients: judging.clients } : {}),
      scorers: options.scorers ?? [],
      caseName: slot.evalCase.name,
      variant: slot.variant.name,
    });
    await judging?.save();
    const record = recordOf(slot, facts, results, wasResumed);
    records.push(record);
    options.onProgress?.({ type: 'scored', run: record });
  };
  for (const slot of resumed) await scoreSlot(slot, state.finished.get(slot.key) as string, true);
  const spent = (): number =>
    records.reduce((total, run) => total + run.metrics.costDollars + run.judge.costDollars, 0);
  const notRun: string[] = [];
  const controller = new AbortController();
  // Every run in flight listens to it: as many listeners as the concurrency.
  setMaxListeners(0, controller.signal);
  const stop = (): void => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  const pending = plan.slots.filter((slot) => !state.finished.has(slot.key));
  try {
    await runPool(pending, options.concurrency ?? definition.concurrency, async (slot) => {
      if (controller.signal.aborted) return;
      if (options.maxCostDollars !== undefined && spent() >= options.maxCostDollars) {
        notRun.push(slot.key);
        return;
      }
      const run = runMission(await projectOf(slot.variant), {
        mission: definition.mission,
        inputs: slot.evalCase.inputs,
        stateDir,
        signal: controller.signal,
        ...(await slotCassette(options, slot)),
        ...(options.mockModel !== undefined ? { mockModel: options.mockModel } : {}),
      });
      options.onProgress?.({ type: 'started', key: slot.key, runId: run.runId });
      const result = await run.result;
      // A cancelled run (Ctrl-C) is not finished: the same command runs it again.
      if (result.status === 'cancelled' && controller.signal.aborted) return;
      await state.add(slot.key, run.runId);
      await scoreSlot(slot, run.runId, false);
    });
  } catch (error) {
    stop();
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
  if (notRun.length > 0) {
    options.onProgress?.({
      type: 'stopped',
      notRun,
      reason: `--max-cost ${options.maxCostDollars}`,
    });
  }
  if (!controller.signal.aborted) await state.remove();
  return buildReport({
    evalName: definition.name,
    mission: definition.mission,
    variants: plan.variants,
    cases: plan.cases,
    repeat: plan.repeat,
    runs: records,
    notRun,
    ...(options.maxCostDollars !== undefined ? { maxCostDollars: options.maxCostDollars } : {}),
  });
}

/** The eval named, or the only one; a usage error otherwise. */
async function findEval(project: Project, name: string | undefined): Promise<EvalDefinition> {
  const analysis = await analyzeEvals(project.config);
  const errors = analysis.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
  if (errors.length > 0) {
    const { ProjectConfigError } = await import('../config/load-project.ts');
    throw new ProjectConfigError(analysis.diagnostics, project.root, analysis.sources);
  }
  const names = analysis.evals.map((definition) => definition.name);
  if (!analysis.found || names.length === 0) {
    throw new UsageError(
      `no evals in ${join(project.root, '.evals')}: write one as docs/eval.md shows`,
    );
  }
  if (name === undefined) {
    const [only] = analysis.evals;
    if (analysis.evals.length === 1 && only !== undefined) return only;
    throw new UsageError(`the project has ${names.length} evals (${names.join(', ')}): name one`);
  }
  const found = analysis.evals.find((definition) => definition.name === name);
  if (found !== undefined) return found;
  const { didYouMean } = await import('../base/suggest.ts');
  throw new UsageError(`no eval "${name}"${didYouMean(name, names)}`);
}

/**
 * The expectations of a run: a run is expected to succeed unless its eval or case says
 * what the run's status should be (`expect "failed" {}`).
 */
function withRunStatus(
  definition: EvalDefinition,
  expectations: readonly PlacedExpectation[],
): PlacedExpectation[] {
  const saysStatus = expectations.some(
    ({ expectation }) => expectation.kind === 'status' && expectation.task === undefined,
  );
  if (saysStatus) return [...expectations];
  const succeeded = { kind: 'status', status: 'succeeded' } as const;
  return [{ expectation: succeeded, label: 'succeeded', span: definition.span }, ...expectations];
}

/** The eval files' texts, part of the fingerprint. */
async function evalSources(project: Project): Promise<Array<[string, string]>> {
  const analysis = await analyzeEvals(project.config);
  return [...analysis.sources];
}

function recordOf(
  slot: EvalSlot,
  facts: RunFacts,
  results: RunRecord['results'],
  resumed: boolean,
): RunRecord {
  const judged = results.flatMap((result) => (result.judge === undefined ? [] : [result.judge]));
  return {
    key: slot.key,
    variant: slot.variant.name,
    case: slot.evalCase.name,
    repeat: slot.repeat,
    runId: facts.runId,
    status: facts.summary.status,
    passed: results.every((result) => result.passed),
    results,
    metrics: {
      costDollars: facts.costDollars,
      tokens: facts.summary.tokens,
      requests: facts.summary.turns,
      commanderTurns: facts.commanderTurns,
      durationSeconds: facts.summary.durationMs / 1000,
    },
    judge: {
      tokens: judged.reduce((total, judge) => total + judge.tokens, 0),
      costDollars: judged.reduce((total, judge) => total + judge.costDollars, 0),
    },
    resumed,
  };
}
