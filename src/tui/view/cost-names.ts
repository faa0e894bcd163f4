/**
 * The names of one Costs table fitted to its name column without cutting them: two models or
 * two actors whose cut names looked alike (`anthro…ku_4_5`) could not be told apart.
 */
import { lineWidth, truncate } from '../../present/columns.ts';

/** A row's name and the part of it that may be left out when nothing else needs it. */
export interface CostName {
  /** The whole name, as the table's key reads (`anthropic.claude_haiku_4_5 (local)`). */
  name: string;
  /** A leading part the name stays readable without (a model's `anthropic.`), or ''. */
  droppable: string;
}

/** How one row is named: `text` in the name column, or on a line of its own above the figures. */
export interface FittedName {
  text: string;
  ownLine: boolean;
}

/** The name without its droppable part. */
function shortName(row: CostName): string {
  return row.name.slice(row.droppable.length);
}

/**
 * Each name whole when it fits `nameWidth` columns; else without its droppable prefix when that
 * fits and no other row of the table reads the same (`openai.fast` and `anthropic.fast` keep
 * theirs); else whole on its own line, cut in the middle only past the terminal's `columns`.
 */
export function fitCostNames(
  rows: readonly CostName[],
  nameWidth: number,
  columns: number,
): FittedName[] {
  const readings = new Map<string, number>();
  const count = (text: string): void => {
    readings.set(text, (readings.get(text) ?? 0) + 1);
  };
  for (const row of rows) {
    count(row.name);
    if (row.droppable !== '') count(shortName(row));
  }
  return rows.map((row) => {
    if (lineWidth(row.name) <= nameWidth) return { text: row.name, ownLine: false };
    const short = shortName(row);
    if (row.droppable !== '' && lineWidth(short) <= nameWidth && readings.get(short) === 1) {
      return { text: short, ownLine: false };
    }
    return { text: truncate(row.name, columns, 'middle'), ownLine: true };
  });
}
