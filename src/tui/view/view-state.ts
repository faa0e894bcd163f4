/**
 * What the person is looking at (tab, focus, selection, scroll, overlays) and how navigation
 * commands change it. Pure: the app supplies the facts (rows, sizes) and performs effects
 * such as gate calls itself.
 */
import type { Command, Overlay, Pane } from '../keys.ts';
import { parseActorId } from '../../base/events.ts';
import { windowStart, type TreeRow } from '../store/tree-rows.ts';
import type { AnswerForm } from './answer-form.ts';
import { ITEM_COLUMNS, ITEM_STATUSES, type ItemQuery, type ItemRow } from './item-table.ts';

/** The five tabs. */
export type Tab = 'tree' | 'costs' | 'events' | 'outputs' | 'items';

/** The view's state. */
export interface ViewState {
  tab: Tab;
  /** Focus inside the Tree tab. */
  focus: 'tree' | 'detail';
  overlay: Overlay;
  /** Selected actor id (null: the first row). */
  selected: string | null;
  treeStart: number;
  collapsed: ReadonlySet<string>;
  detailCursor: number;
  detailOffset: number;
  detailExpanded: ReadonlySet<string>;
  /** Scroll of the table tabs; events scroll null = follow the newest. */
  costsStart: number;
  outputsStart: number;
  eventsStart: number | null;
  /** The seq under the Events tab's cursor (`f`/`e` fork there); null: no cursor yet. */
  eventsSelected: number | null;
  filter: string;
  breakpointCursor: number;
  /** The breakpoint spec being typed in the breakpoint list (`a`). */
  breakpointTyped: string;
  /** What was wrong with the spec last sent from that line (shown while it is fixed); null: nothing. */
  breakpointProblem: string | null;
  /** The answer being typed to a question to the person. */
  answer: string;
  /** The form being filled for a question that asks for one (see `answer-form.ts`). */
  form: AnswerForm | null;
  /** The new limit being typed in the budget prompt. */
  budgetTyped: string;
  /** First line of the help overlay shown. */
  helpStart: number;
  /** The iterated task the item table shows (null: the first one). */
  itemsTask: string | null;
  /** The row under the item table's cursor, by position in the sorted, filtered rows. */
  itemsCursor: number;
  /** The item table's order and status filter (its text filter is `filter`). */
  itemsSort: Omit<ItemQuery, 'text'>;
}

/** The facts navigation needs about what is on screen. */
export interface ViewFacts {
  rows: readonly TreeRow[];
  detailBlockCount: number;
  /** Lines of the current table tab. */
  listLength: number;
  /** The seqs of the Events tab's lines (filtered), oldest first. */
  eventSeqs: readonly number[];
  bodyHeight: number;
  breakpointCount: number;
  /** Lines of the help overlay. */
  helpLength: number;
  /** The item table's rows in the order shown (`enter` opens a row's commander). */
  itemRows: readonly Pick<ItemRow, 'commander'>[];
}

/** The view before any key. */
export const INITIAL_VIEW: ViewState = {
  tab: 'tree',
  focus: 'tree',
  overlay: 'none',
  selected: null,
  treeStart: 0,
  collapsed: new Set(),
  detailCursor: 0,
  detailOffset: 0,
  detailExpanded: new Set(),
  costsStart: 0,
  outputsStart: 0,
  eventsStart: null,
  eventsSelected: null,
  filter: '',
  breakpointCursor: 0,
  breakpointTyped: '',
  breakpointProblem: null,
  answer: '',
  form: null,
  budgetTyped: '',
  helpStart: 0,
  itemsTask: null,
  itemsCursor: 0,
  itemsSort: { sort: 'index', descending: false, status: 'all' },
};

/** The pane keys go to. */
export function focusedPane(view: ViewState): Pane {
  return view.tab === 'tree' ? view.focus : view.tab;
}

/** Index of the selected row (0 when nothing or something gone is selected). */
export function selectedIndex(view: ViewState, rows: readonly TreeRow[]): number {
  const index = view.selected === null ? -1 : rows.findIndex((row) => row.id === view.selected);
  return Math.max(0, index);
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(value, Math.max(low, high)));
}

function toggled(set: ReadonlySet<string>, key: string, on: boolean): ReadonlySet<string> {
  if (set.has(key) === on) return set;
  const next = new Set(set);
  if (on) next.add(key);
  else next.delete(key);
  return next;
}

function moveTree(view: ViewState, facts: ViewFacts, delta: number): ViewState {
  const index = clamp(selectedIndex(view, facts.rows) + delta, 0, facts.rows.length - 1);
  return withSelection(view, facts.rows[index]?.id ?? null);
}

function scrollList(view: ViewState, facts: ViewFacts, delta: number): ViewState {
  const maxStart = Math.max(0, facts.listLength - facts.bodyHeight);
  if (view.tab === 'costs')
    return { ...view, costsStart: clamp(view.costsStart + delta, 0, maxStart) };
  if (view.tab === 'outputs') {
    return { ...view, outputsStart: clamp(view.outputsStart + delta, 0, maxStart) };
  }
  return moveEventsCursor(view, facts, delta);
}

/**
 * Moves the Events tab's cursor by `delta` lines (the first move starts from the newest line)
 * and scrolls so that it stays on screen.
 */
function moveEventsCursor(view: ViewState, facts: ViewFacts, delta: number): ViewState {
  const seqs = facts.eventSeqs;
  if (seqs.length === 0) return view;
  const at = view.eventsSelected === null ? -1 : seqs.indexOf(view.eventsSelected);
  const from = at < 0 ? seqs.length : at;
  const cursor = clamp(from + delta, 0, seqs.length - 1);
  const height = Math.max(1, facts.bodyHeight);
  // No start yet follows the newest lines: windowStart clamps it to the last screen.
  const start = windowStart(view.eventsStart ?? seqs.length, cursor, height, seqs.length);
  return { ...view, eventsSelected: seqs[cursor] ?? null, eventsStart: start };
}

function move(view: ViewState, facts: ViewFacts, delta: number): ViewState {
  if (view.overlay === 'help') {
    // The overlay's first row is its title.
    const maxStart = Math.max(0, facts.helpLength - (facts.bodyHeight - 1));
    return { ...view, helpStart: clamp(view.helpStart + delta, 0, maxStart) };
  }
  if (view.overlay === 'breakpoints') {
    return {
      ...view,
      breakpointCursor: clamp(view.breakpointCursor + delta, 0, facts.breakpointCount - 1),
    };
  }
  if (view.tab === 'items') {
    const last = facts.itemRows.length - 1;
    return { ...view, itemsCursor: clamp(view.itemsCursor + delta, 0, last) };
  }
  if (view.tab !== 'tree') return scrollList(view, facts, delta);
  if (view.focus === 'tree') return moveTree(view, facts, delta);
  const cursor = clamp(view.detailCursor + delta, 0, facts.detailBlockCount - 1);
  return { ...view, detailCursor: cursor, detailOffset: 0 };
}

function page(view: ViewState, facts: ViewFacts, direction: 1 | -1): ViewState {
  if (view.overlay === 'none' && view.tab === 'tree' && view.focus === 'detail') {
    return { ...view, detailOffset: Math.max(0, view.detailOffset + direction * facts.bodyHeight) };
  }
  return move(view, facts, direction * Math.max(1, facts.bodyHeight - 1));
}

function expandOrCollapse(
  view: ViewState,
  facts: ViewFacts,
  expand: boolean,
  detailKey: string | null,
): ViewState {
  if (view.focus === 'detail') {
    if (detailKey === null) return view;
    return { ...view, detailExpanded: toggled(view.detailExpanded, detailKey, expand) };
  }
  const row = facts.rows[selectedIndex(view, facts.rows)];
  if (row === undefined || !row.hasChildren) return view;
  return { ...view, collapsed: toggled(view.collapsed, row.id, !expand) };
}

/** Leaving the filter line: the filtered lists start again from the top (events: the newest). */
const FILTER_CLOSED = {
  overlay: 'none',
  eventsStart: null,
  eventsSelected: null,
  itemsCursor: 0,
} as const satisfies Partial<ViewState>;

/** The view after a navigation command; other commands leave it as it is. */
export function applyViewCommand(
  view: ViewState,
  command: Command,
  facts: ViewFacts,
  detailKey: string | null,
): ViewState {
  switch (command) {
    case 'moveUp':
      return move(view, facts, -1);
    case 'moveDown':
      return move(view, facts, 1);
    case 'pageUp':
      return page(view, facts, -1);
    case 'pageDown':
      return page(view, facts, 1);
    case 'expand':
      return expandOrCollapse(view, facts, true, detailKey);
    case 'collapse':
      return expandOrCollapse(view, facts, false, detailKey);
    case 'nextPane':
      return { ...view, focus: view.focus === 'tree' ? 'detail' : 'tree' };
    case 'tabTree':
      return { ...view, tab: 'tree' };
    case 'tabCosts':
      return { ...view, tab: 'costs' };
    case 'tabEvents':
      return { ...view, tab: 'events' };
    case 'tabOutputs':
      return { ...view, tab: 'outputs' };
    case 'tabItems':
      return { ...view, tab: 'items', itemsTask: taskOf(view.selected) ?? view.itemsTask };
    case 'itemSort':
    case 'itemReverse':
    case 'itemStatus':
      return { ...view, itemsSort: nextItemsSort(view.itemsSort, command), itemsCursor: 0 };
    case 'openItem':
      return openItem(view, facts);
    case 'filter':
      return { ...view, overlay: 'filter' };
    case 'filterApply':
      return { ...view, ...FILTER_CLOSED };
    case 'filterCancel':
      return { ...view, ...FILTER_CLOSED, filter: '' };
    case 'filterErase':
      return { ...view, filter: view.filter.slice(0, -1) };
    case 'answer':
      return { ...view, overlay: 'answer' };
    case 'answerClose':
      return { ...view, overlay: 'none' };
    case 'answerErase':
      return { ...view, answer: view.answer.slice(0, -1) };
    case 'help':
      return { ...view, overlay: view.overlay === 'help' ? 'none' : 'help', helpStart: 0 };
    case 'listBreakpoints':
      return { ...view, overlay: 'breakpoints', breakpointCursor: 0 };
    case 'breakpointAdd':
      return { ...view, overlay: 'breakpointAdd', breakpointTyped: '', breakpointProblem: null };
    case 'breakpointAddErase':
      return { ...view, breakpointTyped: view.breakpointTyped.slice(0, -1) };
    case 'breakpointAddClose':
      return { ...view, overlay: 'breakpoints', breakpointTyped: '', breakpointProblem: null };
    case 'closeOverlay':
    case 'confirmNo':
      return { ...view, overlay: 'none' };
    default:
      return view;
  }
}

/** A new selection resets the detail cursor. */
export function withSelection(view: ViewState, selected: string | null): ViewState {
  if (selected === view.selected) return view;
  return { ...view, selected, detailCursor: 0, detailOffset: 0 };
}

/** The task of a selected task, item commander or item agent (`agent:visit[3]/reader` → `visit`). */
function taskOf(selected: string | null): string | null {
  const parsed = selected === null ? undefined : parseActorId(selected);
  if (parsed === undefined || parsed.kind === 'run' || parsed.kind === 'mission') return null;
  return parsed.name;
}

function nextItemsSort(
  sort: ViewState['itemsSort'],
  command: 'itemSort' | 'itemReverse' | 'itemStatus',
): ViewState['itemsSort'] {
  if (command === 'itemReverse') return { ...sort, descending: !sort.descending };
  if (command === 'itemStatus') {
    const next = (ITEM_STATUSES.indexOf(sort.status) + 1) % ITEM_STATUSES.length;
    return { ...sort, status: ITEM_STATUSES[next] ?? 'all' };
  }
  const next = (ITEM_COLUMNS.indexOf(sort.sort) + 1) % ITEM_COLUMNS.length;
  return { ...sort, sort: ITEM_COLUMNS[next] ?? 'index' };
}

/** The tree with the item under the cursor selected (its task expanded so that it shows). */
function openItem(view: ViewState, facts: ViewFacts): ViewState {
  const commander = facts.itemRows[view.itemsCursor]?.commander;
  if (commander === undefined) return view;
  const task = taskOf(commander);
  const collapsed = task === null ? view.collapsed : toggled(view.collapsed, `task:${task}`, false);
  return { ...withSelection(view, commander), tab: 'tree', focus: 'tree', collapsed };
}
