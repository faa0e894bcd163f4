/**
 * The tree as the rows it shows: depth-first over the children index, skipping what is under
 * collapsed nodes. Derived on demand (only when the shape or the collapsed set changes) and
 * then windowed by the view, which reads node contents for its visible rows only.
 */
import { ROOT } from './actor-tree.ts';
import type { TuiState } from './state.ts';

/** One visible row of the tree. */
export interface TreeRow {
  id: string;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** Visible rows in display order. */
export function treeRows(
  children: TuiState['children'],
  collapsed: ReadonlySet<string>,
): TreeRow[] {
  const rows: TreeRow[] = [];
  // An explicit stack: a deep or wide tree must not cost recursion depth.
  const stack: Array<{ id: string; depth: number }> = [];
  const pushChildren = (parent: string, depth: number): void => {
    const ids = children.get(parent);
    if (ids === undefined) return;
    for (let at = ids.length - 1; at >= 0; at--) stack.push({ id: ids.at(at) ?? '', depth });
  };
  pushChildren(ROOT, 0);
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const hasChildren = (children.get(entry.id)?.length ?? 0) > 0;
    const expanded = hasChildren && !collapsed.has(entry.id);
    rows.push({ id: entry.id, depth: entry.depth, hasChildren, expanded });
    if (expanded) pushChildren(entry.id, entry.depth + 1);
  }
  return rows;
}

/** The first row of a window of `height` rows that keeps `selected` visible. */
export function windowStart(
  previousStart: number,
  selected: number,
  height: number,
  total: number,
): number {
  const maxStart = Math.max(0, total - height);
  let start = Math.min(previousStart, maxStart);
  if (selected < start) start = selected;
  if (selected >= start + height) start = selected - height + 1;
  return Math.max(0, Math.min(start, maxStart));
}
