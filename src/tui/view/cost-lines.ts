/** The Costs tab as text lines: one table per task, actor and model, and the totals. */
import { formatCost, UNPRICED_NOTE } from '../../present/money.ts';
import { formatCount } from '../../present/numbers.ts';
import type { CostRow, CostTables } from '../store/state.ts';
import { shortActorId } from '../../present/actor-text.ts';
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
  return formatCost(row.costPico, row.unpriced);
}

/** Reasoning tokens; `~` marks a figure that includes sortie's estimate. */
function reasoning(row: CostRow): string {
  return row.reasoningEstimated ? `~${formatCount(row.reasoning)}` : formatCount(row.reasoning);
}

function rowText(name: string, row: CostRow, nameWidth: number): string {
  const numbers = [row.input, row.cacheRead, row.cacheWrite, row.output].map(formatCount);
  // Names are cut in the middle: `openai.gpt-4o-mini` and `openai.gpt-4o` stay distinguishable.
  return (
    padEnd(name, nameWidth, 'middle') +
    padStart(formatCount(row.requests), REQUESTS_WIDTH) +
    [...numbers, reasoning(row)].map((value) => padStart(value, NUMBER_WIDTH)).join('') +
    padStart(dollars(row), DOLLARS_WIDTH)
  );
}

function headerText(title: string, nameWidth: number): string {
  const columns = ['input', 'cache rd', 'cache wr', 'output', 'reasoning'];
  return (
    padEnd(title, nameWidth, 'middle') +
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
    // The total row has the tables' headings above it, so each figure says what it is.
    { text: headerText('', nameWidth), heading: true },
    { text: rowText('total', costs.total, nameWidth), heading: true },
    { text: '', heading: false },
    ...table('per task', costs.byTask, nameWidth, (row) => row.key),
    ...table('per model', costs.byModel, nameWidth, (row) =>
      row.local ? `${row.key} (local)` : row.key,
    ),
    // Parallel items' actors differ only in their item number, which the shortening keeps.
    ...table('per actor', costs.byActor, nameWidth, (row) => shortActorId(row.key, nameWidth)),
  ];
  if (costs.total.unpriced) {
    lines.push({
      text: UNPRICED_NOTE,
      heading: false,
    });
  }
  return lines;
}
