/**
 * Text measured in terminal columns, not UTF-16 units: a CJK character or an emoji takes two
 * columns, a combining mark none, an ANSI escape none. Widths come from `string-width`,
 * word-aware wrapping from `wrap-ansi` and cutting from `cli-truncate` (the libraries Ink itself
 * lays text out with), so what sortie measures is what the terminal shows.
 */
import cliTruncate from 'cli-truncate';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

/**
 * Characters that each take exactly one column and never join a neighbour into one grapheme:
 * printable ASCII, Latin-1 and Latin extended letters (no soft hyphen, no combining marks),
 * general punctuation (`—`, `…`, `›`), arrows, box drawing and the geometric shapes the
 * tree draws (`▸`, `▾`, `●`). Checked one by one against string-width in
 * test/present/columns.test.ts. A line made only of these is as wide as it is long, which
 * skips string-width's grapheme segmentation: most of a TUI frame's cost before.
 */
const NARROW_ONLY =
  /^[\u0020-\u007e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e\u2190-\u21ff\u2500-\u25fc]*$/;

/** Columns one line takes (string-width, with the narrow-only shortcut). */
export function lineWidth(line: string): number {
  return NARROW_ONLY.test(line) ? line.length : stringWidth(line);
}

/** Columns a text takes on a terminal (its widest line). */
export function textWidth(text: string): number {
  if (!text.includes('\n')) return lineWidth(text);
  let widest = 0;
  for (const line of text.split('\n')) widest = Math.max(widest, lineWidth(line));
  return widest;
}

/**
 * Splits text into lines of at most `width` columns, breaking between words (a word wider
 * than the line is the only thing cut). Newlines are kept; each line's indentation is kept
 * and repeated on its continuation lines, so indented JSON stays readable.
 */
export function wrapLines(text: string, width: number): string[] {
  const size = Math.max(1, width);
  const lines: string[] = [];
  for (const raw of text.replace(/\t/g, '  ').split('\n')) {
    const body = raw.trimStart();
    if (body === '') {
      lines.push('');
      continue;
    }
    // An indent that leaves fewer than ten columns is dropped rather than squeezing the text.
    const indentWidth = raw.length - body.length;
    const indent = size - indentWidth >= 10 ? raw.slice(0, indentWidth) : '';
    const wrapped = wrapAnsi(body, size - indent.length, { hard: true, trim: true });
    for (const line of wrapped.split('\n')) lines.push(`${indent}${line}`);
  }
  return lines;
}

/** Where `truncate` cuts: the end (default) or the middle, which keeps both ends distinguishable. */
export type CutAt = 'end' | 'middle';

/** Cuts text to `width` columns, marking the cut with `…`. */
export function truncate(text: string, width: number, at: CutAt = 'end'): string {
  if (width <= 0) return '';
  if (NARROW_ONLY.test(text)) {
    // One column per character: what cli-truncate would cut, without measuring each grapheme.
    if (text.length <= width) return text;
    if (at === 'end') return `${text.slice(0, width - 1)}…`;
  }
  if (stringWidth(text) <= width) return text;
  const options = { position: at, truncationCharacter: '…' } as const;
  // cli-truncate keeps a wide character that straddles the limit, one column over: cut shorter.
  let cut = cliTruncate(text, width, options);
  for (let target = width - 1; stringWidth(cut) > width && target > 0; target -= 1) {
    cut = cliTruncate(text, target, options);
  }
  return cut;
}

/** Pads (or cuts) to exactly `width` columns, left-aligned. */
export function padEnd(text: string, width: number, at: CutAt = 'end'): string {
  const cut = truncate(text, width, at);
  return cut + ' '.repeat(Math.max(0, width - lineWidth(cut)));
}

/** Pads (or cuts) to exactly `width` columns, right-aligned. */
export function padStart(text: string, width: number): string {
  const cut = truncate(text, width);
  return ' '.repeat(Math.max(0, width - lineWidth(cut))) + cut;
}

/**
 * Aligns a table's columns to their widest cell; columns in `right` are right-aligned, the
 * last column is left unpadded unless right-aligned.
 */
export function alignRows(rows: readonly string[][], right: ReadonlySet<number>): string[][] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, lineWidth(cell));
    });
  }
  return rows.map((row) =>
    row.map((cell, column) => {
      const width = widths[column] ?? 0;
      if (right.has(column)) return padStart(cell, width);
      return column === row.length - 1 ? cell : padEnd(cell, width);
    }),
  );
}

/** Text squeezed to one line (whitespace collapsed) of at most `width` columns. */
export function oneLine(text: string, width: number): string {
  return truncate(text.replace(/\s+/g, ' ').trim(), width);
}

/** The first non-blank line of a text, whitespace collapsed, cut to `width` columns. */
export function firstLine(text: string, width: number): string {
  const line = text.split('\n').find((candidate) => candidate.trim() !== '') ?? '';
  return oneLine(line, width);
}
