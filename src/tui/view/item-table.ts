/**
 * The item table of an iterated task: one row per item from the store's outputs, item stats
 * and actor tree, sorted by any column, filtered by status and text, and cut to the window on
 * screen, so 10,000 items cost a sort when they change and a few dozen lines per frame.
 */
import { padEnd, padStart, firstLine } from '../../present/columns.ts';
import { formatCost } from '../../present/money.ts';
import { formatCount, formatDuration } from '../../present/numbers.ts';
import { commanderId } from '../store/outputs.ts';
import type { ItemOutput, TuiState } from '../store/state.ts';

/** The table's columns, in the order shown; `s` steps through them. */
export const ITEM_COLUMNS = [
  'index',
  'status',
  'retries',
  'turns',
  'tokens',
  'cost',
  'duration',
  'text',
] as const;
/** A column of the item table. */
export type ItemColumn = (typeof ITEM_COLUMNS)[number];
/** The statuses `t` steps through; `all` shows every item. */
export const ITEM_STATUSES = ['all', 'running', 'succeeded', 'failed'] as const;
/** A status filter. */
export type ItemStatusFilter = (typeof ITEM_STATUSES)[number];

/** One item as the table shows it. */
export interface ItemRow {
  index: number;
  /** The item's commander, which `enter` opens in the tree. */
  commander: string;
  status: ItemOutput['status'];
  retries: number;
  turns: number;
  tokens: number;
  costPico: bigint;
  unpriced: boolean;
  durationMs: number | null;
  /** The first line of the output, or of the error. */
  text: string;
}

/** How the rows are ordered and narrowed. */
export interface ItemQuery {
  sort: ItemColumn;
  descending: boolean;
  status: ItemStatusFilter;
  /** Words the row's text or status must contain (case ignored). */
  text: string;
}

function outputText(item: ItemOutput): string {
  if (item.error !== null) return item.error;
  if (item.output === null || item.output === undefined) return '';
  return typeof item.output === 'string' ? item.output : JSON.stringify(item.output);
}

/** Every item of `task` in index order. */
export function itemRows(state: TuiState, task: string): ItemRow[] {
  const items = state.outputs.get(task)?.items;
  if (items === undefined) return [];
  const rows: ItemRow[] = [];
  for (const item of items.values()) {
    const commander = commanderId(task, item.index);
    const stats = state.itemStats.get(commander);
    const node = state.actors.get(commander);
    rows.push({
      index: item.index,
      commander,
      status: item.status,
      retries: Math.max(0, (stats?.attempt ?? 1) - 1),
      turns: stats?.turns ?? 0,
      tokens: node?.tokens ?? 0,
      costPico: node?.costPico ?? 0n,
      unpriced: node?.unpriced ?? false,
      durationMs: stats?.durationMs ?? null,
      // A line of 200 characters is wider than any screen; the rest is never shown.
      text: firstLine(outputText(item), 200),
    });
  }
  return rows.sort((left, right) => left.index - right.index);
}

function compare(left: ItemRow, right: ItemRow, column: ItemColumn): number {
  switch (column) {
    case 'index':
      return left.index - right.index;
    case 'status':
    case 'text':
      return left[column].localeCompare(right[column]);
    case 'cost':
      return left.costPico === right.costPico ? 0 : left.costPico < right.costPico ? -1 : 1;
    case 'duration':
      // Unfinished items sort after every finished one.
      return (left.durationMs ?? Infinity) - (right.durationMs ?? Infinity) || 0;
    default:
      return left[column] - right[column];
  }
}

/** The rows `query` keeps, in its order; ties keep index order. */
export function queryItems(rows: readonly ItemRow[], query: ItemQuery): ItemRow[] {
  const words = query.text.toLowerCase().split(/\s+/).filter(Boolean);
  const kept = rows.filter(
    (row) =>
      (query.status === 'all' || row.status === query.status) &&
      words.every((word) => `${row.index} ${row.status} ${row.text}`.toLowerCase().includes(word)),
  );
  const direction = query.descending ? -1 : 1;
  return kept.sort(
    (left, right) => direction * compare(left, right, query.sort) || left.index - right.index,
  );
}

const WIDTHS: Record<Exclude<ItemColumn, 'text'>, number> = {
  index: 6,
  status: 11,
  retries: 8,
  turns: 7,
  tokens: 9,
  cost: 9,
  duration: 9,
};
const TITLES: Record<ItemColumn, string> = {
  index: '#',
  status: 'status',
  retries: 'retries',
  turns: 'turns',
  tokens: 'tokens',
  cost: 'cost',
  duration: 'time',
  text: 'output / error',
};

/** The heading line; the sorted column carries `▲` or `▼`. */
export function itemHeading(query: ItemQuery, width: number): string {
  const title = (column: ItemColumn): string =>
    column === query.sort ? `${TITLES[column]}${query.descending ? '▼' : '▲'}` : TITLES[column];
  return rowLine(ITEM_COLUMNS.map(title), width);
}

function rowLine(cells: readonly string[], width: number): string {
  const fixed = ITEM_COLUMNS.slice(0, -1).map((column, at) => {
    const cell = cells[at] ?? '';
    const columnWidth = WIDTHS[column as Exclude<ItemColumn, 'text'>];
    return column === 'status' ? padEnd(` ${cell}`, columnWidth) : padStart(cell, columnWidth);
  });
  const used = fixed.join('');
  return used + padEnd(`  ${cells.at(-1) ?? ''}`, Math.max(0, width - used.length));
}

/** One item as a line `width` columns wide. */
export function itemLine(row: ItemRow, width: number): string {
  return rowLine(
    [
      String(row.index),
      row.status,
      String(row.retries),
      formatCount(row.turns),
      formatCount(row.tokens),
      formatCost(row.costPico, row.unpriced),
      row.durationMs === null ? '' : formatDuration(row.durationMs),
      row.text,
    ],
    width,
  );
}
