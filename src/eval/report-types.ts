/** The report of an eval (`--json FILE` writes it as it is). */
import type { ExpectationResult } from './scorers/score-run.ts';

/** The figures of one run that the report averages. */
export interface RunMetrics {
  costDollars: number;
  tokens: number;
  requests: number;
  commanderTurns: number;
  durationSeconds: number;
}

/** One run of the eval. */
export interface RunRecord {
  /** `variant/case/repeat`. */
  key: string;
  variant: string;
  case: string;
  repeat: number;
  runId: string;
  status: string;
  passed: boolean;
  results: ExpectationResult[];
  metrics: RunMetrics;
  /** What its judges spent (not in `metrics`, which is the run's own). */
  judge: { tokens: number; costDollars: number };
  /** Finished by an earlier attempt of the same eval and not run again. */
  resumed: boolean;
}

/** Mean and 95th percentile of one figure. */
export interface Spread {
  mean: number;
  p95: number;
}

/** A failed expectation of a run, with what it saw. */
export interface Failure {
  label: string;
  seen: string;
  runId: string;
  repeat: number;
}

/** One variant × case cell of the table. */
export interface Cell {
  variant: string;
  case: string;
  runs: number;
  passed: number;
  passRate: number;
  threshold: number;
  meetsThreshold: boolean;
  failures: Failure[];
  metrics: Record<keyof RunMetrics, Spread>;
  runIds: string[];
}

/** One variant's totals over its cases. */
export interface VariantTotals {
  variant: string;
  runs: number;
  passed: number;
  passRate: number;
  costDollars: number;
  tokens: number;
  judgeCostDollars: number;
  judgeTokens: number;
  casesMeetingThreshold: number;
}

/** A regression against a previous report (`--compare`). */
export interface Regression {
  variant: string;
  case: string;
  what: 'pass rate' | 'cost' | 'commander turns';
  before: number;
  after: number;
}

/** The whole report. */
export interface EvalReport {
  version: 1;
  eval: string;
  mission: string;
  variants: string[];
  cases: string[];
  repeat: number;
  cells: Cell[];
  totals: VariantTotals[];
  runs: RunRecord[];
  /** Slots not run because `--max-cost` was reached. */
  notRun: string[];
  /**
   * With `--max-cost`: what the runs cost (their judges included) and how much of it came
   * past the limit, spent by runs already started when it was reached (they finish).
   */
  costLimit?: { limitDollars: number; spentDollars: number; pastDollars: number };
  /** `sortie diff` of the first run of two variants, per case (with two variants or more). */
  diffCommands: Array<{ case: string; command: string }>;
  regressions: Regression[];
  /** Every case meets its threshold in every variant, every slot ran, no regression. */
  passed: boolean;
}
