/** Plain-text `sortie runs` table and `sortie show` report. */
import { isAbsolute, relative } from 'node:path';
import type { RunRow } from '../journal/runs.ts';
import type { ActorForkPoints, ItemSummary, RunSummary, TaskSummary } from '../journal/summary.ts';
import { alignRows } from '../present/columns.ts';
import { formatJson, indentLines } from '../present/json-text.ts';
import { formatCost, UNPRICED_NOTE } from '../present/money.ts';
import { countOf, formatCount, formatDuration } from '../present/numbers.ts';
import { painter, paintStatus as paintWith } from '../present/paint.ts';
import { formatStart, type TextFormatOptions } from '../present/report-text.ts';

/** A status word inside a padded cell, coloured when the options ask for colour. */
function paintStatus(status: string, padded: string, options: TextFormatOptions): string {
  return paintWith(status, padded, painter(options.color === true));
}

const STATUS_COLUMN = 2;

/** How the runs table reads: the report options, and where project paths are relative to. */
export interface RunsTableOptions extends TextFormatOptions {
  /** Projects below this folder are shown relative to it (default: absolute). */
  cwd?: string;
}

/**
 * The `sortie runs` table: aligned columns, newest first as given, one trailing newline; a
 * PROJECT column when some row knows its project (listing the run index), and a FORKED FROM
 * column (`RUN@SEQ`) when some run is a fork.
 */
export function formatRunsTable(rows: readonly RunRow[], options: RunsTableOptions = {}): string {
  if (rows.length === 0) return 'no runs yet\n';
  const projects = rows.some((row) => row.project !== undefined);
  const forks = rows.some((row) => row.forkedFrom !== null);
  const cells = [
    [
      'RUN ID',
      'MISSION',
      'STATUS',
      'STARTED',
      'DURATION',
      'TOKENS',
      'COST',
      ...(projects ? ['PROJECT'] : []),
      ...(forks ? ['FORKED FROM'] : []),
    ],
    ...rows.map((row) => [
      row.runId,
      row.mission === '' ? '-' : row.mission,
      row.status,
      formatStart(row.startedAt, options) || '-',
      formatDuration(row.durationMs),
      formatCount(row.tokens),
      formatCost(row.costPico, row.unpriced),
      ...(projects ? [projectText(row.project, options.cwd)] : []),
      ...(forks
        ? [row.forkedFrom === null ? '' : `${row.forkedFrom.runId}@${row.forkedFrom.seq}`]
        : []),
    ]),
  ];
  const lines = alignRows(cells, new Set([4, 5, 6])).map((row, index) => {
    const status = index === 0 ? '' : (rows[index - 1]?.status ?? '');
    const painted = row.map((cell, column) =>
      column === STATUS_COLUMN && index > 0 ? paintStatus(status, cell, options) : cell,
    );
    return painted.join('  ').trimEnd();
  });
  if (rows.some((row) => row.unpriced)) lines.push(UNPRICED_NOTE);
  for (const row of rows) {
    if (row.problem !== undefined) lines.push(`${row.runId}: ${row.problem}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A project path relative to `cwd` when below it ('.' for `cwd` itself), else absolute. */
function projectText(project: string | undefined, cwd: string | undefined): string {
  if (project === undefined) return '-';
  if (cwd === undefined) return project;
  const below = relative(cwd, project);
  if (below === '') return '.';
  return below.startsWith('..') || isAbsolute(below) ? project : below;
}

/** The `sortie show RUN_ID` report: header, tasks with outputs and items, costs, errors. */
export function formatRunSummary(summary: RunSummary, options: TextFormatOptions = {}): string {
  const lines: string[] = [
    `run ${summary.runId} · ${summary.mission} · ${paintStatus(summary.status, summary.status, options)}${summary.resumed ? ' (resumed)' : ''}${summary.forkedFrom === null ? '' : ` (forked from ${summary.forkedFrom.runId} at seq ${summary.forkedFrom.seq})`}`,
    [
      `started ${formatStart(summary.startedAt, options) || '-'}`,
      formatDuration(summary.durationMs),
      `${formatCount(summary.tokens)} tokens`,
      formatCost(summary.costPico, summary.unpriced),
    ].join(' · '),
  ];
  if (summary.missions.length > 1) {
    lines.push('', 'missions');
    for (const mission of summary.missions) {
      const via = mission.chainedFrom === null ? '' : ` (chained from ${mission.chainedFrom})`;
      const error = mission.error === undefined ? '' : `: ${mission.error}`;
      lines.push(
        `  ${mission.name}  ${paintStatus(mission.status, mission.status, options)}${via}${error}`,
      );
    }
  }
  lines.push('', 'tasks', ...taskLines(summary.tasks, options));
  if (summary.models.length > 0) {
    lines.push('', 'costs by model');
    const rows = summary.models.map((model) => [
      `  ${model.model}`,
      model.apiName,
      countOf(model.turns, 'turn'),
      `${formatCount(model.tokens)} tokens`,
      formatCost(model.costPico, model.unpriced),
    ]);
    lines.push(...alignRows(rows, new Set([2, 3, 4])).map((row) => row.join('  ')));
  }
  if (summary.forkPoints.length > 0) {
    lines.push('', `fork points (sortie fork ${summary.runId} --at SEQ)`);
    lines.push(...forkPointLines(summary.forkPoints));
  }
  if (summary.budgetRaises.length > 0)
    lines.push('', 'budgets raised', ...summary.budgetRaises.map((raise) => `  ${raise}`));
  if (summary.errors.length > 0)
    lines.push('', 'errors', ...summary.errors.map((error) => `  ${indentLines(error, '  ')}`));
  if (summary.warnings.length > 0)
    lines.push('', 'warnings', ...summary.warnings.map((warning) => `  ${warning}`));
  if (summary.unpriced) lines.push('', UNPRICED_NOTE);
  return `${lines.join('\n')}\n`;
}

/** One line per actor: `  commander:write  replies 6 10 · results 8`. */
function forkPointLines(points: readonly ActorForkPoints[]): string[] {
  const rows = points.map((point) => {
    const lists: Array<[string, string, readonly number[]]> = [
      ['start', 'starts', point.starts],
      ['reply', 'replies', point.replies],
      ['result', 'results', point.results],
    ];
    const text = lists
      .filter(([, , seqs]) => seqs.length > 0)
      .map(([one, many, seqs]) => `${seqs.length === 1 ? one : many} ${seqs.join(' ')}`)
      .join(' · ');
    return [`  ${point.actor}`, text];
  });
  return alignRows(rows, new Set()).map((row) => row.join('  ').trimEnd());
}

function taskLines(tasks: readonly TaskSummary[], options: TextFormatOptions): string[] {
  if (tasks.length === 0) return ['  (none started)'];
  const rows = alignRows(
    tasks.map((task) => [
      `  ${task.name}`,
      task.status === 'skipped' && task.skipReason !== undefined
        ? `skipped (${task.skipReason})`
        : task.status,
      task.durationMs === undefined ? '' : formatDuration(task.durationMs),
      task.turns === 0 ? '' : `${formatCount(task.tokens)} tokens`,
      task.turns === 0 ? '' : formatCost(task.costPico, task.unpriced),
    ]),
    new Set([2, 3, 4]),
  );
  const lines: string[] = [];
  tasks.forEach((task, index) => {
    const row = rows[index] ?? [];
    row[1] = paintStatus(task.status, row[1] ?? '', options);
    lines.push(row.join('  ').trimEnd());
    if (task.summary !== undefined)
      lines.push(`    summary  ${indentLines(task.summary, '             ')}`);
    if (task.route !== undefined && task.route !== null) lines.push(`    route    ${task.route}`);
    if (task.output !== undefined && !task.iterated)
      lines.push(`    output   ${formatJson(task.output, '             ')}`);
    if (task.skipCause !== undefined) lines.push(`    cause    ${task.skipCause}`);
    if (task.error !== undefined)
      lines.push(`    error    ${indentLines(task.error, '             ')}`);
    lines.push(...itemLines(task.items, options));
  });
  return lines;
}

function itemLines(items: readonly ItemSummary[], options: TextFormatOptions): string[] {
  if (items.length === 0) return [];
  const rows = alignRows(
    items.map((item) => [
      `    [${item.index}] ${item.itemId}`,
      item.attempts > 1 ? `${item.status} (${item.attempts} attempts)` : item.status,
      item.status === 'succeeded' ? (JSON.stringify(item.output) ?? 'null') : (item.error ?? ''),
    ]),
    new Set(),
  );
  return rows.map((row, index) => {
    const status = items[index]?.status ?? '';
    row[1] = paintStatus(status, row[1] ?? '', options);
    return row.join('  ').trimEnd();
  });
}
