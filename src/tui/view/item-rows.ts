/**
 * The item table's rows kept up to date between frames: the store's item vectors say which
 * items changed since the last frame (chunks compared by identity), only those rows are derived
 * again, and the sorted, filtered list is patched by removing their old rows and merging in the
 * new ones in order, so an update batch costs its own items plus one pass over the list, not a
 * rebuild and sort of 10,000 rows. A new task or query rebuilds everything.
 */
import { ItemVector } from '../store/item-vector.ts';
import type { ItemOutput, ItemStats } from '../store/state.ts';
import { itemRow, rowFilter, rowOrder, type ItemQuery, type ItemRow } from './item-table.ts';

/** What the table shows of a task: its rows in the query's order and how many items it has. */
export interface ItemRowsResult {
  rows: readonly ItemRow[];
  total: number;
}

function sameQuery(left: ItemQuery, right: ItemQuery): boolean {
  return (
    left.sort === right.sort &&
    left.descending === right.descending &&
    left.status === right.status &&
    left.text === right.text
  );
}

/** Merges two lists each in `order` into one. */
function merge<T>(left: readonly T[], right: readonly T[], order: (a: T, b: T) => number): T[] {
  const merged: T[] = [];
  let at = 0;
  for (const value of right) {
    while (at < left.length && order(left[at]!, value) < 0) merged.push(left[at++]!);
    merged.push(value);
  }
  while (at < left.length) merged.push(left[at++]!);
  return merged;
}

/** The rows of one task between frames; `update` with each snapshot's vectors. */
export class ItemRowCache {
  private task: string | null = null;
  private items = ItemVector.empty<ItemOutput>();
  private stats = ItemVector.empty<ItemStats>();
  /** Every item's row by index. */
  private byIndex: (ItemRow | undefined)[] = [];
  private query: ItemQuery | null = null;
  private shown: readonly ItemRow[] = [];

  /** The rows of `task` under `query`; the same array as last time when nothing changed. */
  update(
    task: string,
    items: ItemVector<ItemOutput>,
    stats: ItemVector<ItemStats>,
    query: ItemQuery,
  ): ItemRowsResult {
    if (task !== this.task) this.reset(task);
    const changed = this.derive(items, stats);
    if (this.query === null || !sameQuery(this.query, query)) {
      this.query = query;
      const all = this.byIndex.filter((row): row is ItemRow => row !== undefined);
      this.shown = all.filter(rowFilter(query)).sort(rowOrder(query));
    } else if (changed.length > 0) {
      this.shown = this.patch(changed, query);
    }
    return { rows: this.shown, total: items.size };
  }

  private reset(task: string): void {
    this.task = task;
    this.items = ItemVector.empty();
    this.stats = ItemVector.empty();
    this.byIndex = [];
    this.query = null;
    this.shown = [];
  }

  /** Derives the rows of the items that changed; returns each one's old and new row. */
  private derive(
    items: ItemVector<ItemOutput>,
    stats: ItemVector<ItemStats>,
  ): { before: ItemRow | undefined; after: ItemRow | undefined }[] {
    const indices = new Set([...items.changedSince(this.items), ...stats.changedSince(this.stats)]);
    this.items = items;
    this.stats = stats;
    const changed = [];
    for (const index of indices) {
      const item = items.get(index);
      const before = this.byIndex[index];
      const after =
        item === undefined ? undefined : itemRow(this.task ?? '', item, stats.get(index));
      this.byIndex[index] = after;
      changed.push({ before, after });
    }
    return changed;
  }

  /** The shown rows without the changed rows' old versions, with their new ones in order. */
  private patch(
    changed: readonly { before: ItemRow | undefined; after: ItemRow | undefined }[],
    query: ItemQuery,
  ): ItemRow[] {
    const order = rowOrder(query);
    const keeps = rowFilter(query);
    const gone = new Set<ItemRow>();
    const added: ItemRow[] = [];
    for (const { before, after } of changed) {
      if (before !== undefined) gone.add(before);
      if (after !== undefined && keeps(after)) added.push(after);
    }
    const kept = gone.size === 0 ? this.shown : this.shown.filter((row) => !gone.has(row));
    return merge(kept, added.sort(order), order);
  }
}
