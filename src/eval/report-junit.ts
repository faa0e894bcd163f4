/**
 * An eval report as JUnit XML (`--junit FILE`): a test suite per eval and variant, a test
 * case per eval case, failed when the case misses its threshold, with each failed
 * expectation and the value seen in the failure's text.
 */
import type { Cell, EvalReport } from './report-types.ts';

/** The reports as one JUnit document. */
export function junitXml(reports: readonly EvalReport[]): string {
  const suites = reports.flatMap((report) =>
    report.variants.map((variant) => suiteXml(report, variant)),
  );
  const cells = reports.flatMap((report) => report.cells);
  const failures = cells.filter((cell) => !cell.meetsThreshold).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="sortie eval" tests="${cells.length}" failures="${failures}">`,
    ...suites,
    '</testsuites>',
    '',
  ].join('\n');
}

function suiteXml(report: EvalReport, variant: string): string {
  const cells = report.cells.filter((cell) => cell.variant === variant);
  const failures = cells.filter((cell) => !cell.meetsThreshold).length;
  const seconds = cells.reduce(
    (total, cell) => total + cell.metrics.durationSeconds.mean * cell.runs,
    0,
  );
  return [
    `  <testsuite name="${attribute(`${report.eval}.${variant}`)}" tests="${cells.length}" failures="${failures}" time="${seconds.toFixed(3)}">`,
    ...cells.map((cell) => caseXml(report, cell)),
    '  </testsuite>',
  ].join('\n');
}

function caseXml(report: EvalReport, cell: Cell): string {
  const name = attribute(cell.case);
  const className = attribute(`${report.eval}.${cell.variant}`);
  const time = (cell.metrics.durationSeconds.mean * cell.runs).toFixed(3);
  const open = `    <testcase name="${name}" classname="${className}" time="${time}">`;
  const rate = `pass rate ${cell.passed}/${cell.runs}, needs ${Math.round(cell.threshold * 100)}%`;
  const properties = `      <system-out>${text(`${rate}; runs ${cell.runIds.join(' ')}`)}</system-out>`;
  if (cell.meetsThreshold) return [open, properties, '    </testcase>'].join('\n');
  const details = cell.failures
    .map(
      (failure) =>
        `run ${failure.runId} (repeat ${failure.repeat}): ${failure.label} — seen ${failure.seen}`,
    )
    .join('\n');
  return [
    open,
    `      <failure message="${attribute(rate)}" type="threshold">${text(details)}</failure>`,
    properties,
    '    </testcase>',
  ].join('\n');
}

/** Escapes text for an XML attribute (and drops characters XML 1.0 cannot hold). */
function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;');
}

function text(value: string): string {
  return value
    .replace(/[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
