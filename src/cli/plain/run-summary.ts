/**
 * The closing lines of the plain log: each task (status, and its summary — the final answer —
 * whole: on the row when it is one short line, else below it; a failed task's error below it,
 * up to 30 lines), each output (compact JSON, cut), and the costs per model with the total.
 */
import type { LogState, TaskLine } from './log-state.ts';
import { alignRows, firstLine, padEnd, textWidth } from '../../present/columns.ts';
import { compactJson } from '../../present/json-text.ts';
import { formatCost, UNPRICED_NOTE } from '../../present/money.ts';
import { countOf } from '../../present/numbers.ts';
import { noPaint, paintStatus, type Painter } from '../../present/paint.ts';

const SUMMARY_WIDTH = 100;
const OUTPUT_WIDTH = 200;
/** Lines of a failed task's error shown below its row. */
const ERROR_LINES = 30;

/** The summary lines (no trailing newline on each). */
export function summaryLines(state: LogState, paint: Painter = noPaint): string[] {
  const tasks = [...state.tasks.values()];
  const multipleMissions = new Set(tasks.map((task) => task.mission)).size > 1;
  const name = (task: TaskLine): string =>
    multipleMissions ? `${task.mission}/${task.task}` : task.task;
  const nameWidth = Math.max(0, ...tasks.map((task) => textWidth(name(task))));
  const lines: string[] = [];
  if (tasks.length > 0) {
    lines.push('tasks:');
    for (const task of tasks) {
      const failed = task.status === 'failed';
      const whole = task.detail.trim();
      // A final answer is never cut: one that does not fit the row goes below it, whole.
      const onRow = failed || (!whole.includes('\n') && textWidth(whole) <= SUMMARY_WIDTH);
      const detail = onRow ? firstLine(task.detail, SUMMARY_WIDTH) : '';
      const items =
        task.items.size + task.failedItems > 0
          ? ` · items ${task.items.size} succeeded, ${task.failedItems} failed`
          : '';
      lines.push(
        `  ${padEnd(name(task), nameWidth)}  ${paintStatus(task.status, task.status, paint)}${items}${detail === '' ? '' : `  ${detail}`}`,
      );
      if (failed) lines.push(...errorDetail(task.detail));
      else if (!onRow) lines.push(...whole.split('\n').map((line) => indented(line)));
    }
  }
  const outputs = tasks.filter((task) => task.output !== undefined || task.items.size > 0);
  if (outputs.length > 0) {
    lines.push('outputs:');
    for (const task of outputs) {
      const value =
        task.output !== undefined
          ? task.output
          : Object.fromEntries(
              [...task.items]
                .sort(([a], [b]) => a - b)
                .map(([index, output]) => [String(index), output]),
            );
      lines.push(`  ${padEnd(name(task), nameWidth)}  ${compactJson(value, OUTPUT_WIDTH)}`);
    }
  }
  lines.push(...costLines(state));
  return lines;
}

function costLines(state: LogState): string[] {
  const models = [...state.models];
  if (models.length === 0) return ['costs: no model requests'];
  const rows = models.map(([name, spend]) => [
    `  ${name}`,
    countOf(spend.requests, 'request'),
    countOf(spend.tokens, 'token'),
    formatCost(spend.costPico, spend.unpriced),
  ]);
  const requests = models.reduce((sum, [, spend]) => sum + spend.requests, 0);
  rows.push([
    '  total',
    countOf(requests, 'request'),
    countOf(state.tokens, 'token'),
    formatCost(state.costPico, state.unpriced),
  ]);
  const table = alignRows(rows, new Set([1, 2])).map((row) => row.join('  '));
  return ['costs:', ...table, ...(state.unpriced ? [UNPRICED_NOTE] : [])];
}

/** A line of a task's summary or error below its row. */
function indented(line: string): string {
  return `      ${line.trimEnd()}`.trimEnd();
}

/** The lines after the first of a task's error (a cassette diff, a stack of causes), indented. */
function errorDetail(error: string): string[] {
  const rest = error.trim().split('\n').slice(1);
  const shown = rest.slice(0, ERROR_LINES).map(indented);
  if (rest.length > ERROR_LINES)
    shown.push(`      … ${countOf(rest.length - ERROR_LINES, 'more line', 'more lines')}`);
  return shown;
}
