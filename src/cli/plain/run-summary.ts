/**
 * The closing lines of the plain log: each task (status, first line of its summary or error;
 * a failed task's whole error below it), each output (compact JSON, cut), and the costs per
 * model with the total.
 */
import { formatDollars } from '../../models/cost.ts';
import type { LogState, TaskLine } from './log-state.ts';
import {
  compactJson,
  formatCount,
  painter,
  shorten,
  type Painter,
} from '../../present/plain-text.ts';

const SUMMARY_WIDTH = 100;
const OUTPUT_WIDTH = 200;
/** Lines of a failed task's error shown below its row. */
const ERROR_LINES = 30;

/** The summary lines (no trailing newline on each). */
export function summaryLines(state: LogState, paint: Painter = painter(false)): string[] {
  const tasks = [...state.tasks.values()];
  const multipleMissions = new Set(tasks.map((task) => task.mission)).size > 1;
  const name = (task: TaskLine): string =>
    multipleMissions ? `${task.mission}/${task.task}` : task.task;
  const nameWidth = Math.max(0, ...tasks.map((task) => name(task).length));
  const lines: string[] = [];
  if (tasks.length > 0) {
    lines.push('tasks:');
    for (const task of tasks) {
      const detail = shorten(task.detail, SUMMARY_WIDTH);
      const items =
        task.items.size + task.failedItems > 0
          ? ` · items ${task.items.size} succeeded, ${task.failedItems} failed`
          : '';
      lines.push(
        `  ${name(task).padEnd(nameWidth)}  ${statusWord(task.status, paint)}${items}${detail === '' ? '' : `  ${detail}`}`,
      );
      if (task.status === 'failed') lines.push(...errorDetail(task.detail));
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
      lines.push(`  ${name(task).padEnd(nameWidth)}  ${compactJson(value, OUTPUT_WIDTH)}`);
    }
  }
  lines.push(...costLines(state));
  return lines;
}

function costLines(state: LogState): string[] {
  const models = [...state.models];
  const unpricedMark = (unpriced: boolean): string => (unpriced ? ' (unpriced)' : '');
  if (models.length === 0) return ['costs: no model requests'];
  const width = Math.max(...models.map(([name]) => name.length), 'total'.length);
  const rows = models.map(([name, spend]) => [
    name.padEnd(width),
    `${formatCount(spend.requests)} request${spend.requests === 1 ? '' : 's'}`,
    `${formatCount(spend.tokens)} tokens`,
    `${formatDollars(spend.costPico)}${unpricedMark(spend.unpriced)}`,
  ]);
  const requests = models.reduce((sum, [, spend]) => sum + spend.requests, 0);
  rows.push([
    'total'.padEnd(width),
    `${formatCount(requests)} request${requests === 1 ? '' : 's'}`,
    `${formatCount(state.tokens)} tokens`,
    `${formatDollars(state.costPico)}${state.unpriced ? ' + unpriced' : ''}`,
  ]);
  const widths = [1, 2].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  return [
    'costs:',
    ...rows.map(
      ([name, requestsText, tokens, dollars]) =>
        `  ${name}  ${(requestsText ?? '').padStart(widths[0] ?? 0)}  ${(tokens ?? '').padStart(widths[1] ?? 0)}  ${dollars}`,
    ),
  ];
}

function statusWord(status: TaskLine['status'], paint: Painter): string {
  const tone =
    status === 'succeeded'
      ? 'good'
      : status === 'failed'
        ? 'bad'
        : status === 'skipped'
          ? 'dim'
          : 'warn';
  return paint(tone, status);
}

/** The lines after the first of a task's error (a cassette diff, a stack of causes), indented. */
function errorDetail(error: string): string[] {
  const rest = error.trim().split('\n').slice(1);
  const shown = rest.slice(0, ERROR_LINES).map((line) => `      ${line.trimEnd()}`);
  if (rest.length > ERROR_LINES) shown.push(`      … ${rest.length - ERROR_LINES} more lines`);
  return shown;
}
