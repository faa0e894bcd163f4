/**
 * What is on screen, derived from the snapshot and the view: sizes, the tree's visible rows
 * and window, the selected actor's detail blocks, and the lines of the table tabs (computed
 * only for the tab shown).
 */
import { useMemo, useRef } from 'react';
import type { GatePoint } from '../../runtime/gate.ts';
import { FOOTER_KEY_LINES } from '../components/Footer.tsx';
import { helpLines } from '../components/HelpOverlay.tsx';
import type { KeyContext } from '../keys.ts';
import {
  EMPTY_DETAIL,
  treeRows,
  windowStart,
  type TreeRow,
  type TuiState,
} from '../store/index.ts';
import { costLines, type CostLine } from '../view/cost-lines.ts';
import { useItemTable, type ItemTableScreen } from './use-item-table.ts';
import { detailBlocks, type DetailBlock } from '../view/detail-blocks.ts';
import { filterEvents } from '../view/event-filter.ts';
import { outputLines, type OutputLine } from '../view/output-lines.ts';
import { selectedIndex, type ViewState } from '../view/view-state.ts';
import type { EventLine } from '../store/index.ts';

/** Header, tabs, notice and key lines, plus one row that keeps the frame from scrolling. */
const CHROME_ROWS = 3 + FOOTER_KEY_LINES + 1;
/** The confirm box's height. */
const CONFIRM_ROWS = 3;

/** The derived picture of one frame. */
export interface Screen {
  columns: number;
  bodyHeight: number;
  treeWidth: number;
  detailWidth: number;
  tree: readonly TreeRow[];
  selected: number;
  treeStart: number;
  selectedId: string | null;
  blocks: readonly DetailBlock[];
  detailCursor: number;
  costs: readonly CostLine[];
  events: readonly EventLine[];
  /** The seqs of `events`, for the Events cursor. */
  eventSeqs: readonly number[];
  outputs: readonly OutputLine[];
  items: ItemTableScreen;
  /** Lines of the table tab shown. */
  listLength: number;
  /** Lines of the help overlay (empty while it is closed). */
  help: readonly string[];
}

/** Derives the frame's picture; memoised so a repaint recomputes only what changed. */
export function useScreen(
  state: TuiState,
  view: ViewState,
  held: readonly GatePoint[],
  size: { columns: number; rows: number },
  context: Pick<KeyContext, 'mode' | 'finished'>,
): Screen {
  const { columns } = size;
  const bodyHeight = Math.max(
    3,
    size.rows - CHROME_ROWS - (view.overlay === 'confirm' ? CONFIRM_ROWS : 0),
  );
  const treeWidth = Math.floor(columns * 0.42);
  const tree = useMemo(
    () => treeRows(state.children, view.collapsed),
    [state.children, view.collapsed],
  );
  const selected = selectedIndex(view, tree);
  const treeStart = useRef(0);
  treeStart.current = windowStart(treeStart.current, selected, bodyHeight, tree.length);
  const selectedId = tree[selected]?.id ?? null;
  const node = selectedId === null ? undefined : state.actors.get(selectedId);
  const detail =
    selectedId === null ? EMPTY_DETAIL : (state.details.get(selectedId) ?? EMPTY_DETAIL);
  const blocks = useMemo(
    () => (node === undefined ? [] : detailBlocks(node, detail, held)),
    [node, detail, held],
  );
  const costs = useMemo(
    () => (view.tab === 'costs' ? costLines(state.costs, columns) : []),
    [view.tab, state.costs, columns],
  );
  const events = useMemo(
    () => (view.tab === 'events' ? filterEvents(state.log, view.filter) : []),
    [view.tab, state.log, view.filter],
  );
  const eventSeqs = useMemo(() => events.map((line) => line.seq), [events]);
  const outputs = useMemo(
    () => (view.tab === 'outputs' ? outputLines(state.outputs, columns) : []),
    [view.tab, state.outputs, columns],
  );
  const help = useMemo(
    () => (view.overlay === 'help' ? helpLines(context, columns - 2) : []),
    [view.overlay, context.mode, context.finished, columns],
  );
  const items = useItemTable(state, view, bodyHeight);
  const listLength =
    view.tab === 'costs' ? costs.length : view.tab === 'events' ? events.length : outputs.length;
  return {
    columns,
    bodyHeight,
    treeWidth,
    detailWidth: columns - treeWidth - 2,
    tree,
    selected,
    treeStart: treeStart.current,
    selectedId,
    blocks,
    detailCursor: Math.min(view.detailCursor, Math.max(0, blocks.length - 1)),
    costs,
    events,
    eventSeqs,
    outputs,
    items,
    listLength,
    help,
  };
}
