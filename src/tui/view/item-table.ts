/**
 * The item table of an iterated task: one row per item from the store's outputs and item
 * stats, sorted by any column, filtered by status and text, and cut to the window on
 * screen. `ItemRowCache` (item-rows.ts) keeps them up to date one changed item at a time.
 */
import { padEnd, padStart, firstLine } from '../../present/columns.ts';
import { formatCost } from '../../present/money.ts';
import { formatCount, formatDuration } from '../../present/numbers.ts';
import { commanderId } from '../store/outputs.ts';
import type { ItemOutput, ItemStats, TuiState } from '../store/state.ts';

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

/** One item's row, from its record and stats. */
export function itemRow(task: string, item: ItemOutput, stats: ItemStats | undefined): ItemRow {
  return {
    index: item.index,
    commander: commanderId(task, item.index),
    status: item.status,
    retries: Math.max(0, (stats?.attempt ?? 1) - 1),
    turns: stats?.turns ?? 0,
    tokens: stats?.tokens ?? 0,
    costPico: stats?.costPico ?? 0n,
    unpriced: stats?.unpriced ?? false,
    durationMs: stats?.durationMs ?? null,
    // A line of 200 characters is wider than any screen; the rest is never shown.
    text: firstLine(outputText(item), 200),
  };
}

/** Every item of `task` in index order, each row derived anew. */
export function itemRows(state: TuiState, task: string): ItemRow[] {
  const items = state.outputs.get(task)?.items;
  if (items === undefined) return [];
  const stats = state.itemStats.get(task);
  return [...items.values()].map((item) => itemRow(task, item, stats?.get(item.index)));
}

// One collator for every comparison: `localeCompare` builds one per call.
const collator = new Intl.Collator();

function compare(left: ItemRow, right: ItemRow, column: ItemColumn): number {
  switch (column) {
    case 'index':
      return left.index - right.index;
    case 'status':
    case 'text':
      return collator.compare(left[column], right[column]);
    case 'cost':
      return left.costPico === right.costPico ? 0 : left.costPico < right.costPico ? -1 : 1;
    case 'duration':
      // Unfinished items sort after every finished one.
      return (left.durationMs ?? Infinity) - (right.durationMs ?? Infinity) || 0;
    default:
      return left[column] - right[column];
  }
}

/** The order `query` shows rows in: a total order, ties broken by index. */
export function rowOrder(query: ItemQuery): (left: ItemRow, right: ItemRow) => number {
  const direction = query.descending ? -1 : 1;
  return (left, right) => direction * compare(left, right, query.sort) || left.index - right.index;
}

/** Whether `query` keeps a row: its status, and every word in its index, status or text. */
export function rowFilter(query: ItemQuery): (row: ItemRow) => boolean {
  const words = query.text.toLowerCase().split(/\s+/).filter(Boolean);
  return (row) =>
    (query.status === 'all' || row.status === query.status) &&
    (words.length === 0 ||
      words.every((word) => `${row.index} ${row.status} ${row.text}`.toLowerCase().includes(word)));
}

/** The rows `query` keeps, in its order; ties keep index order. */
export function queryItems(rows: readonly ItemRow[], query: ItemQuery): ItemRow[] {
  return rows.filter(rowFilter(query)).sort(rowOrder(query));
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
