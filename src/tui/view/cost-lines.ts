/** The Costs tab as text lines: one table per task, actor and model, and the totals. */
import { formatCost, UNPRICED_NOTE } from '../../present/money.ts';
import { formatCount } from '../../present/numbers.ts';
import type { CostRow, CostTables } from '../store/state.ts';
import { lineWidth, padEnd, padStart } from '../../present/columns.ts';
import { fitCostNames, type CostName, type FittedName } from './cost-names.ts';

const HEADINGS = ['req', 'input', 'cache rd', 'cache wr', 'output', 'reasoning', 'dollars'];
/** Spaces before each figure column. */
const GAP = 2;
/** The narrowest name column: below it the figures overflow rather than every name moving. */
const SHORTEST_NAME_COLUMN = 8;

/** One line of the Costs tab; headings are shown in bold. */
export interface CostLine {
  text: string;
  heading: boolean;
}

/** A row's figures, in the order of HEADINGS; `~` marks reasoning that includes sortie's estimate. */
function figures(row: CostRow): string[] {
  const counts = [row.requests, row.input, row.cacheRead, row.cacheWrite, row.output];
  const reasoning = `${row.reasoningEstimated ? '~' : ''}${formatCount(row.reasoning)}`;
  const unpricedOnly = row.unpriced && row.costPico === 0n;
  const dollars = unpricedOnly ? 'unpriced' : formatCost(row.costPico, row.unpriced);
  return [...counts.map(formatCount), reasoning, dollars];
}

/** The tab's layout: each figure column as wide as its widest cell, the name column the rest. */
interface Layout {
  nameWidth: number;
  figureWidths: number[];
  columns: number;
}

function layout(rows: readonly CostRow[], columns: number): Layout {
  const figureWidths = HEADINGS.map((heading) => lineWidth(heading));
  for (const row of rows) {
    figures(row).forEach((cell, at) => {
      figureWidths[at] = Math.max(figureWidths[at] ?? 0, lineWidth(cell));
    });
  }
  const padded = figureWidths.map((width) => width + GAP);
  const used = padded.reduce((sum, width) => sum + width, 0);
  return {
    nameWidth: Math.max(SHORTEST_NAME_COLUMN, columns - used),
    figureWidths: padded,
    columns,
  };
}

function cellsText(name: string, cells: readonly string[], shape: Layout): string {
  return (
    padEnd(name, shape.nameWidth, 'middle') +
    cells.map((cell, at) => padStart(cell, shape.figureWidths[at] ?? 0)).join('')
  );
}

/** One row's lines: the figures beside its name, or below it when the name has its own line. */
function rowLines(name: FittedName, row: CostRow, shape: Layout, heading = false): CostLine[] {
  if (!name.ownLine) return [{ text: cellsText(name.text, figures(row), shape), heading }];
  return [
    { text: name.text, heading },
    { text: cellsText('', figures(row), shape), heading },
  ];
}

function table(
  title: string,
  rows: ReadonlyMap<string, CostRow>,
  shape: Layout,
  naming: (row: CostRow) => CostName,
): CostLine[] {
  const lines: CostLine[] = [{ text: cellsText(title, HEADINGS, shape), heading: true }];
  const listed = [...rows.values()];
  const names = fitCostNames(listed.map(naming), shape.nameWidth, shape.columns);
  listed.forEach((row, at) => {
    lines.push(...rowLines(names[at] ?? { text: row.key, ownLine: true }, row, shape));
  });
  if (rows.size === 0) lines.push({ text: '(no model requests yet)', heading: false });
  lines.push({ text: '', heading: false });
  return lines;
}

/** A model row's name: `config.key`, whose `config.` may be left out when no other key reads the same. */
function modelName(row: CostRow): CostName {
  const dot = row.key.indexOf('.');
  return {
    name: row.local ? `${row.key} (local)` : row.key,
    droppable: dot > 0 ? row.key.slice(0, dot + 1) : '',
  };
}

const wholeName = (row: CostRow): CostName => ({ name: row.key, droppable: '' });

/** Every line of the tab for a terminal `width` columns wide. */
export function costLines(costs: CostTables, width: number): CostLine[] {
  const shape = layout(
    [costs.total, ...costs.byTask.values(), ...costs.byModel.values(), ...costs.byActor.values()],
    width,
  );
  const lines = [
    // The total row has the tables' headings above it, so each figure says what it is.
    { text: cellsText('', HEADINGS, shape), heading: true },
    ...rowLines({ text: 'total', ownLine: false }, costs.total, shape, true),
    { text: '', heading: false },
    ...table('per task', costs.byTask, shape, wholeName),
    ...table('per model', costs.byModel, shape, modelName),
    ...table('per actor', costs.byActor, shape, wholeName),
  ];
  if (costs.total.unpriced) lines.push({ text: UNPRICED_NOTE, heading: false });
  return lines;
}
