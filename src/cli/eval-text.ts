/**
 * What `sortie eval` prints: a line per finished run while it goes, then the report — the
 * table of pass rates (rows per case, columns per variant), failed expectations with the
 * value seen, mean and p95 figures, variant totals, and the `sortie diff` of two variants.
 */
import { escapeControlCharacters } from '../base/control-characters.ts';
import type { Cell, EvalReport, RunRecord } from '../eval/report-types.ts';
import { alignRows } from '../present/columns.ts';

/** `$0.0123`, for the report's dollar figures (numbers, not pico-dollars). */
export function dollars(value: number): string {
  return `$${value.toFixed(4)}`;
}

/** One line for a finished run: `✓ mini/ada/1  run ID  succeeded · $0.0012 · 3 requests`. */
export function runLine(run: RunRecord): string {
  const mark = run.passed ? '✓' : '✗';
  const figures = `${run.status} · ${dollars(run.metrics.costDollars)} · ${run.metrics.requests} requests`;
  const failed = run.results.filter((result) => !result.passed);
  const why =
    failed.length === 0
      ? ''
      : `  failed: ${failed.map((result) => `${result.label} (seen ${result.seen})`).join('; ')}`;
  const resumed = run.resumed ? ' (finished before)' : '';
  return escapeControlCharacters(
    `${mark} ${run.key}  run ${run.runId}${resumed}  ${figures}${why}`,
  );
}

/** The whole report as text. */
export function reportText(report: EvalReport): string {
  const lines: string[] = [
    `eval ${report.eval} · mission ${report.mission} · ${report.variants.length} variants × ${report.cases.length} cases × ${report.repeat} repeats`,
    '',
    ...table(report),
  ];
  const failures = report.cells.flatMap((cell) =>
    cell.failures.map(
      (failure) =>
        `  ${cell.variant} · ${cell.case} · repeat ${failure.repeat} · run ${failure.runId}: ${failure.label} — seen ${failure.seen}`,
    ),
  );
  if (failures.length > 0) lines.push('', 'failed expectations:', ...failures);
  lines.push(
    '',
    'mean / p95 per run:',
    ...indent(alignRows(report.cells.map(metricsRow), new Set())),
  );
  lines.push('', 'variant totals:');
  for (const total of report.totals) {
    const judge =
      total.judgeTokens > 0
        ? ` · judge ${dollars(total.judgeCostDollars)}, ${total.judgeTokens} tokens`
        : '';
    lines.push(
      `  ${total.variant}: ${total.passed}/${total.runs} runs passed · ${total.casesMeetingThreshold}/${report.cases.length} cases meet their threshold · ${dollars(total.costDollars)} · ${total.tokens} tokens${judge}`,
    );
  }
  if (report.diffCommands.length > 0) {
    lines.push('', `compare ${report.variants[0]} with ${report.variants[1]}:`);
    lines.push(...report.diffCommands.map((diff) => `  ${diff.case}: ${diff.command}`));
  }
  for (const regression of report.regressions) {
    lines.push(
      `regression: ${regression.variant} · ${regression.case}: ${regression.what} ${round(regression.before)} → ${round(regression.after)}`,
    );
  }
  const limit = report.costLimit;
  if (limit !== undefined && (report.notRun.length > 0 || limit.pastDollars > 0)) {
    lines.push(
      '',
      `--max-cost ${dollars(limit.limitDollars)}: ${dollars(limit.spentDollars)} spent, ${dollars(limit.pastDollars)} of it past the limit by runs already started`,
    );
  }
  if (report.notRun.length > 0) {
    lines.push(`not run (--max-cost reached): ${report.notRun.join(', ')}`);
  }
  lines.push('', verdict(report));
  return `${escapeControlCharacters(lines.join('\n'))}\n`;
}

function table(report: EvalReport): string[] {
  const header = ['case', ...report.variants];
  const rows = report.cases.map((name) => [
    name,
    ...report.variants.map((variant) => {
      const cell = report.cells.find((item) => item.variant === variant && item.case === name);
      return cell === undefined ? '' : cellText(cell);
    }),
  ]);
  return alignRows([header, ...rows], new Set()).map((row) => row.join('  ').trimEnd());
}

function cellText(cell: Cell): string {
  const rate = `${cell.passed}/${cell.runs} ${Math.round(cell.passRate * 100)}%`;
  if (cell.meetsThreshold) return `${rate} ✓`;
  return `${rate} ✗ (needs ${Math.round(cell.threshold * 100)}%)`;
}

function metricsRow(cell: Cell): string[] {
  const { costDollars, tokens, requests, commanderTurns, durationSeconds } = cell.metrics;
  return [
    `${cell.variant} · ${cell.case}`,
    `cost ${dollars(costDollars.mean)}/${dollars(costDollars.p95)}`,
    `tokens ${round(tokens.mean)}/${tokens.p95}`,
    `requests ${round(requests.mean)}/${requests.p95}`,
    `turns ${round(commanderTurns.mean)}/${commanderTurns.p95}`,
    `${durationSeconds.mean.toFixed(1)}s/${durationSeconds.p95.toFixed(1)}s`,
  ];
}

function indent(rows: string[][]): string[] {
  return rows.map((row) => `  ${row.join('  ')}`);
}

function round(value: number): string {
  return String(Math.round(value * 100) / 100);
}

function verdict(report: EvalReport): string {
  if (report.passed) return 'passed: every case meets its threshold';
  const below = report.cells.filter((cell) => !cell.meetsThreshold).length;
  const reasons = [
    ...(below > 0 ? [`${below} of ${report.cells.length} cells below their threshold`] : []),
    ...(report.notRun.length > 0 ? [`${report.notRun.length} runs not run`] : []),
    ...(report.regressions.length > 0 ? [`${report.regressions.length} regressions`] : []),
  ];
  return `failed: ${reasons.join(', ')}`;
}
