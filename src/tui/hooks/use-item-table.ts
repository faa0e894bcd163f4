/**
 * The item table's rows for a frame: the task shown, its rows sorted and filtered (kept by an
 * `ItemRowCache` that re-derives only the items that changed) and the window that keeps the
 * cursor on screen.
 */
import { useMemo, useRef } from 'react';
import { ItemVector, windowStart, type TuiState } from '../store/index.ts';
import { ItemRowCache } from '../view/item-rows.ts';
import type { ItemRow } from '../view/item-table.ts';
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
  const stats = task === null ? undefined : state.itemStats.get(task);
  const cache = useRef<ItemRowCache | null>(null);
  const { sort, descending, status } = view.itemsSort;
  const { rows, total } = useMemo(() => {
    if (task === null || items === undefined) return { rows: [], total: 0 };
    cache.current ??= new ItemRowCache();
    const query = { sort, descending, status, text: view.filter };
    return cache.current.update(task, items, stats ?? ItemVector.empty(), query);
  }, [task, items, stats, sort, descending, status, view.filter]);
  const cursor = Math.min(view.itemsCursor, Math.max(0, rows.length - 1));
  const start = useRef(0);
  const height = Math.max(1, bodyHeight - ITEM_TABLE_CHROME);
  start.current = windowStart(start.current, cursor, height, rows.length);
  return { task, total, rows, cursor, start: start.current };
}
