/** The Costs tab as text lines: one table per task, actor and model, and the totals. */
import { formatCount, formatDollars } from '../../present/money.ts';
import type { CostRow, CostTables } from '../store/state.ts';
import { padEnd, padStart } from '../../present/columns.ts';

const NUMBER_WIDTH = 10;
const REQUESTS_WIDTH = 6;
const DOLLARS_WIDTH = 11;

/** One line of the Costs tab; headings are shown in bold. */
export interface CostLine {
  text: string;
  heading: boolean;
}

function dollars(row: CostRow): string {
  if (row.unpriced && row.costPico === 0n) return 'unpriced';
  return row.unpriced ? `${formatDollars(row.costPico)}*` : formatDollars(row.costPico);
}

/** Reasoning tokens; `~` marks a figure that includes sortie's estimate. */
function reasoning(row: CostRow): string {
  return row.reasoningEstimated ? `~${formatCount(row.reasoning)}` : formatCount(row.reasoning);
}

function rowText(name: string, row: CostRow, nameWidth: number): string {
  const numbers = [row.input, row.cacheRead, row.cacheWrite, row.output].map(formatCount);
  return (
    padEnd(name, nameWidth) +
    padStart(formatCount(row.requests), REQUESTS_WIDTH) +
    [...numbers, reasoning(row)].map((value) => padStart(value, NUMBER_WIDTH)).join('') +
    padStart(dollars(row), DOLLARS_WIDTH)
  );
}

function headerText(title: string, nameWidth: number): string {
  const columns = ['input', 'cache rd', 'cache wr', 'output', 'reasoning'];
  return (
    padEnd(title, nameWidth) +
    padStart('req', REQUESTS_WIDTH) +
    columns.map((column) => padStart(column, NUMBER_WIDTH)).join('') +
    padStart('dollars', DOLLARS_WIDTH)
  );
}

function table(
  title: string,
  rows: ReadonlyMap<string, CostRow>,
  nameWidth: number,
  label: (row: CostRow) => string,
): CostLine[] {
  const lines: CostLine[] = [{ text: headerText(title, nameWidth), heading: true }];
  for (const row of rows.values())
    lines.push({ text: rowText(label(row), row, nameWidth), heading: false });
  if (rows.size === 0) lines.push({ text: '(no model requests yet)', heading: false });
  lines.push({ text: '', heading: false });
  return lines;
}

/** Every line of the tab for a terminal `width` columns wide. */
export function costLines(costs: CostTables, width: number): CostLine[] {
  const nameWidth = Math.max(12, width - REQUESTS_WIDTH - NUMBER_WIDTH * 5 - DOLLARS_WIDTH);
  const lines = [
    { text: rowText('total', costs.total, nameWidth), heading: true },
    { text: '', heading: false },
    ...table('per task', costs.byTask, nameWidth, (row) => row.key),
    ...table('per model', costs.byModel, nameWidth, (row) =>
      row.local ? `${row.key} (local)` : row.key,
    ),
    ...table('per actor', costs.byActor, nameWidth, (row) => row.key),
  ];
  if (costs.total.unpriced) {
    lines.push({
      text: '* some models have no known price; their cost counts as $0',
      heading: false,
    });
  }
  return lines;
}
