/** The report of an eval from its runs: cells (variant × case), totals, diff commands. */
import type { EvalCase, EvalVariant } from './definition/eval-types.ts';
import type {
  Cell,
  EvalReport,
  RunMetrics,
  RunRecord,
  Spread,
  VariantTotals,
} from './report-types.ts';

/** What the report is built from. */
export interface ReportInput {
  evalName: string;
  mission: string;
  variants: readonly EvalVariant[];
  cases: readonly EvalCase[];
  repeat: number;
  runs: readonly RunRecord[];
  notRun: readonly string[];
  /** `--max-cost`, in dollars. */
  maxCostDollars?: number;
}

const METRICS: ReadonlyArray<keyof RunMetrics> = [
  'costDollars',
  'tokens',
  'requests',
  'commanderTurns',
  'durationSeconds',
];

/** Builds the report; runs are ordered by variant, case and repeat whatever order they ended in. */
export function buildReport(input: ReportInput): EvalReport {
  const order = (run: RunRecord): number[] => [
    input.variants.findIndex((variant) => variant.name === run.variant),
    input.cases.findIndex((evalCase) => evalCase.name === run.case),
    run.repeat,
  ];
  const runs = [...input.runs].sort((left, right) => compareKeys(order(left), order(right)));
  const cells = input.variants.flatMap((variant) =>
    input.cases.map((evalCase) =>
      cellOf(
        variant.name,
        evalCase,
        runs.filter((run) => run.variant === variant.name && run.case === evalCase.name),
      ),
    ),
  );
  const totals = input.variants.map((variant) =>
    totalsOf(
      variant.name,
      runs.filter((run) => run.variant === variant.name),
      cells.filter((cell) => cell.variant === variant.name),
    ),
  );
  return {
    version: 1,
    eval: input.evalName,
    mission: input.mission,
    variants: input.variants.map((variant) => variant.name),
    cases: input.cases.map((evalCase) => evalCase.name),
    repeat: input.repeat,
    cells,
    totals,
    runs,
    notRun: [...input.notRun],
    ...(input.maxCostDollars === undefined
      ? {}
      : { costLimit: costLimitOf(input.maxCostDollars, runs) }),
    diffCommands: diffCommands(input, runs),
    regressions: [],
    passed: input.notRun.length === 0 && cells.every((cell) => cell.meetsThreshold),
  };
}

function cellOf(variant: string, evalCase: EvalCase, runs: readonly RunRecord[]): Cell {
  const passed = runs.filter((run) => run.passed).length;
  const passRate = runs.length === 0 ? 0 : passed / runs.length;
  const metrics = Object.fromEntries(
    METRICS.map((metric) => [metric, spread(runs.map((run) => run.metrics[metric]))]),
  ) as Record<keyof RunMetrics, Spread>;
  return {
    variant,
    case: evalCase.name,
    runs: runs.length,
    passed,
    passRate,
    threshold: evalCase.passRate,
    meetsThreshold: runs.length > 0 && passRate >= evalCase.passRate,
    failures: runs.flatMap((run) =>
      run.results
        .filter((result) => !result.passed)
        .map((result) => ({
          label: result.label,
          seen: result.seen,
          runId: run.runId,
          repeat: run.repeat,
        })),
    ),
    metrics,
    runIds: runs.map((run) => run.runId),
  };
}

function totalsOf(
  variant: string,
  runs: readonly RunRecord[],
  cells: readonly Cell[],
): VariantTotals {
  const sum = (value: (run: RunRecord) => number): number =>
    runs.reduce((total, run) => total + value(run), 0);
  const passed = runs.filter((run) => run.passed).length;
  return {
    variant,
    runs: runs.length,
    passed,
    passRate: runs.length === 0 ? 0 : passed / runs.length,
    costDollars: sum((run) => run.metrics.costDollars),
    tokens: sum((run) => run.metrics.tokens),
    judgeCostDollars: sum((run) => run.judge.costDollars),
    judgeTokens: sum((run) => run.judge.tokens),
    casesMeetingThreshold: cells.filter((cell) => cell.meetsThreshold).length,
  };
}

/** Mean and nearest-rank 95th percentile; zeros for no values. */
export function spread(values: readonly number[]): Spread {
  if (values.length === 0) return { mean: 0, p95: 0 };
  const sorted = [...values].sort((left, right) => left - right);
  const mean = values.reduce((total, value) => total + value, 0) / values.length;
  const rank = Math.ceil(0.95 * sorted.length) - 1;
  return { mean, p95: sorted[Math.max(0, rank)] ?? 0 };
}

/** For each case, `sortie diff` of the first run of the first two variants. */
function diffCommands(input: ReportInput, runs: readonly RunRecord[]): EvalReport['diffCommands'] {
  const [first, second] = input.variants;
  if (first === undefined || second === undefined) return [];
  return input.cases.flatMap((evalCase) => {
    const of = (variant: string): RunRecord | undefined =>
      runs.find((run) => run.variant === variant && run.case === evalCase.name);
    const left = of(first.name);
    const right = of(second.name);
    if (left === undefined || right === undefined) return [];
    return [{ case: evalCase.name, command: `sortie diff ${left.runId} ${right.runId}` }];
  });
}

function compareKeys(left: readonly number[], right: readonly number[]): number {
  for (let index = 0; index < left.length; index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** What the runs spent against `--max-cost`, rounded to the pico-dollar costs are kept in. */
function costLimitOf(
  limitDollars: number,
  runs: readonly RunRecord[],
): NonNullable<EvalReport['costLimit']> {
  const pico = (dollars: number): number => Math.round(dollars * 1e12);
  const spent = runs.reduce(
    (total, run) => total + pico(run.metrics.costDollars) + pico(run.judge.costDollars),
    0,
  );
  const past = Math.max(0, spent - pico(limitDollars));
  return { limitDollars, spentDollars: spent / 1e12, pastDollars: past / 1e12 };
}
