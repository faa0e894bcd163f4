/**
 * `--compare PREVIOUS.json`: the cells of a report checked against the same cells of an
 * earlier one. A pass rate down, or a mean cost or mean commander turns up by more than the
 * margin, is a regression, which fails the eval.
 */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../base/errors.ts';
import type { Cell, EvalReport, Regression } from './report-types.ts';

/** How much a mean may grow before it is a regression: 10 %. */
export const REGRESSION_MARGIN = 0.1;

/** The reports of a `--json` file, by eval name. */
export async function readPreviousReport(path: string): Promise<Map<string, EvalReport>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = error instanceof SyntaxError ? 'not JSON' : (error as NodeJS.ErrnoException).code;
    throw new UsageError(`--compare ${path}: cannot read it (${why})`);
  }
  const evals = (parsed as { evals?: unknown }).evals;
  if (!Array.isArray(evals)) {
    throw new UsageError(`--compare ${path}: not a report of sortie eval --json`);
  }
  return new Map((evals as EvalReport[]).map((report) => [report.eval, report]));
}

/** The report with its regressions against the previous one marked (and `passed` false if any). */
export function compareReports(
  report: EvalReport,
  previous: ReadonlyMap<string, EvalReport>,
): EvalReport {
  const before = previous.get(report.eval);
  if (before === undefined) return report;
  const regressions = report.cells.flatMap((cell) => {
    const old = before.cells.find(
      (item) => item.variant === cell.variant && item.case === cell.case,
    );
    return old === undefined ? [] : regressionsOf(old, cell);
  });
  return { ...report, regressions, passed: report.passed && regressions.length === 0 };
}

function regressionsOf(old: Cell, now: Cell): Regression[] {
  const at = { variant: now.variant, case: now.case };
  const found: Regression[] = [];
  if (now.passRate < old.passRate) {
    found.push({ ...at, what: 'pass rate', before: old.passRate, after: now.passRate });
  }
  const grew = (before: number, after: number): boolean =>
    after > before * (1 + REGRESSION_MARGIN) && after - before > 1e-12;
  const cost = [old.metrics.costDollars.mean, now.metrics.costDollars.mean] as const;
  if (grew(...cost)) found.push({ ...at, what: 'cost', before: cost[0], after: cost[1] });
  const turns = [old.metrics.commanderTurns.mean, now.metrics.commanderTurns.mean] as const;
  if (grew(...turns)) {
    found.push({ ...at, what: 'commander turns', before: turns[0], after: turns[1] });
  }
  return found;
}
