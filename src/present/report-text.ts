/** Small plain-text helpers shared by the `runs` and `show` formatters. */
import { formatDollars } from '../models/cost.ts';

/** Formatting choices; plain text unless `color` is set. */
export interface TextFormatOptions {
  /** Colour statuses with ANSI escapes (only when asked). */
  color?: boolean;
  /** IANA zone for start times (default: the machine's). */
  timeZone?: string;
}

const STATUS_COLORS: Record<string, number> = {
  succeeded: 32,
  failed: 31,
  corrupt: 31,
  cancelled: 33,
  interrupted: 33,
  skipped: 90,
  running: 36,
};

/** A status word, coloured when asked (callers pad first: escapes have no width). */
export function paintStatus(status: string, padded: string, options: TextFormatOptions): string {
  const code = STATUS_COLORS[status];
  if (options.color !== true || code === undefined) return padded;
  return padded.replace(status, `\u001b[${code}m${status}\u001b[39m`);
}

/** `48,210`. */
export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** `$0.4121`, with `*` when some model had no price. */
export function formatCost(costPico: bigint, unpriced: boolean): string {
  return `${formatDollars(costPico)}${unpriced ? '*' : ''}`;
}

/** The footnote explaining `*`. */
export const UNPRICED_NOTE = '* some models have no known price; their turns count as $0';

/** `0.8s`, `40.1s`, `4m 05s`, `1h 02m`. */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.max(0, milliseconds) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const wholeSeconds = Math.floor(seconds);
  if (wholeSeconds < 3600) {
    return `${Math.floor(wholeSeconds / 60)}m ${pad2(wholeSeconds % 60)}s`;
  }
  return `${Math.floor(wholeSeconds / 3600)}h ${pad2(Math.floor((wholeSeconds % 3600) / 60))}m`;
}

/** `2026-11-22 05:23:02` in the chosen zone; '' for ''. */
export function formatStart(iso: string, options: TextFormatOptions): string {
  if (iso === '') return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // The Swedish locale writes ISO-like dates: 2026-11-22 05:23:02.
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: options.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hour12: false,
  }).format(date);
}

/** Column alignment of a table; `right` columns are right-aligned. */
export function alignRows(rows: string[][], right: ReadonlySet<number>): string[][] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, cell.length);
    });
  }
  return rows.map((row) =>
    row.map((cell, column) => {
      const width = widths[column] ?? 0;
      if (right.has(column)) return cell.padStart(width);
      return column === row.length - 1 ? cell : cell.padEnd(width);
    }),
  );
}

/** A JSON value compactly when short, else indented under `indent`. */
export function formatJson(value: unknown, indent: string): string {
  const compact = JSON.stringify(value) ?? 'null';
  if (compact.length <= 100) return compact;
  return indentLines(JSON.stringify(value, null, 2), indent);
}

/** Indents every line after the first. */
export function indentLines(text: string, indent: string): string {
  return text.split('\n').join(`\n${indent}`);
}

function pad2(value: number): string {
  return String(value).padStart(2, '0');
}
