/**
 * The item table's rows for a frame: the task shown, its rows sorted and filtered (recomputed
 * only when the items, the order or the filter change) and the window that keeps the cursor
 * on screen.
 */
import { useMemo, useRef } from 'react';
import { windowStart, type TuiState } from '../store/index.ts';
import { itemRows, queryItems, type ItemRow } from '../view/item-table.ts';
import type { ViewState } from '../view/view-state.ts';

/** The item table as one frame shows it. */
export interface ItemTableScreen {
  /** The iterated task shown; null when the run has none. */
  task: string | null;
  /** Items of the task before filtering. */
  total: number;
  rows: readonly ItemRow[];
  cursor: number;
  /** First row on screen. */
  start: number;
}

/** Rows the table's own lines (title and heading) take from the body. */
export const ITEM_TABLE_CHROME = 2;

/** The task asked for when it has items, else the first task that has. */
function shownTask(state: TuiState, wanted: string | null): string | null {
  if (wanted !== null && (state.outputs.get(wanted)?.items.size ?? 0) > 0) return wanted;
  for (const output of state.outputs.values()) if (output.items.size > 0) return output.task;
  return null;
}

/** Derives the item table (nothing while another tab is shown). */
export function useItemTable(
  state: TuiState,
  view: ViewState,
  bodyHeight: number,
): ItemTableScreen {
  const open = view.tab === 'items';
  const task = open ? shownTask(state, view.itemsTask) : null;
  const items = task === null ? undefined : state.outputs.get(task)?.items;
  // Tokens and cost live on the actor nodes and turns in itemStats: both change the rows.
  const all = useMemo(
    () => (task === null ? [] : itemRows(state, task)),
    [task, items, state.itemStats, state.actors],
  );
  const { sort, descending, status } = view.itemsSort;
  const rows = useMemo(
    () => queryItems(all, { sort, descending, status, text: view.filter }),
    [all, sort, descending, status, view.filter],
  );
  const cursor = Math.min(view.itemsCursor, Math.max(0, rows.length - 1));
  const start = useRef(0);
  const height = Math.max(1, bodyHeight - ITEM_TABLE_CHROME);
  start.current = windowStart(start.current, cursor, height, rows.length);
  return { task, total: all.length, rows, cursor, start: start.current };
}
