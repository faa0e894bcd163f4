import stringWidth from 'string-width';
import { escapeControlCharacters } from '../../base/control-characters.ts';

/** Lines up to this many terminal columns are shown whole. */
export const WHOLE_LINE_WIDTH = 120;
/** Columns of a longer line shown around the diagnostic's column. */
const WINDOW_WIDTH = 100;
/** Of those, the columns kept before the column when the line has them. */
const LEAD_WIDTH = 30;
const ELLIPSIS = '…';
/** UTF-16 units read on each side of the column: enough for the window at 4 units a column. */
const REGION_UNITS = 4 * WINDOW_WIDTH;

/** A source line as a diagnostic shows it, and the caret line under it. */
export interface Excerpt {
  text: string;
  underline: string;
}

interface Cell {
  text: string;
  /** UTF-16 offset in the line. */
  index: number;
  width: number;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The line with carets under `[start, end)` (0-based UTF-16 offsets; at least one caret). A
 * line wider than WHOLE_LINE_WIDTH is cut to a window around `start`, each cut marked with
 * `…`, so a diagnostic on an 8 KB line prints about 100 columns. Widths are terminal columns
 * (wide characters count two); tabs are copied into the padding so the carets line up. A
 * control character shows escaped (`\x1b`), as wide as its escape: a file cannot drive the
 * terminal of whoever verifies it.
 */
export function excerpt(line: string, start: number, end: number): Excerpt {
  const regionStart = surrogateSafe(line, Math.max(0, start - REGION_UNITS));
  const regionEnd = surrogateSafe(line, Math.min(line.length, start + REGION_UNITS));
  const cells = cellsOf(line, regionStart, regionEnd);
  const first = cells.findIndex((cell) => cell.index >= start);
  const at = first < 0 ? cells.length : first;
  const whole =
    regionStart === 0 &&
    regionEnd === line.length &&
    cells.reduce((sum, cell) => sum + cell.width, 0) <= WHOLE_LINE_WIDTH;
  const [from, to] = whole ? [0, cells.length] : windowAround(cells, at);
  const cutLeft = (cells[from]?.index ?? line.length) > 0 && !whole;
  const cutRight = (cells[to]?.index ?? regionEnd) < line.length && !whole;
  const shown = cells.slice(from, to);
  const padding = cells
    .slice(from, at)
    .map((cell) => (cell.text === '\t' ? '\t' : ' '.repeat(cell.width)))
    .join('');
  const marked = cells
    .slice(at, to)
    .filter((cell) => cell.index < end)
    .reduce((sum, cell) => sum + cell.width, 0);
  return {
    text: `${cutLeft ? ELLIPSIS : ''}${shown.map((cell) => cell.text).join('')}${cutRight ? ELLIPSIS : ''}`,
    underline: `${cutLeft ? ' ' : ''}${padding}${'^'.repeat(Math.max(1, marked))}`,
  };
}

/** Cells `[from, to)` of at most WINDOW_WIDTH columns, LEAD_WIDTH of them before `at`. */
function windowAround(cells: readonly Cell[], at: number): [number, number] {
  let from = at;
  let width = 0;
  while (from > 0 && width + (cells[from - 1]?.width ?? 0) <= LEAD_WIDTH) {
    width += cells[from - 1]?.width ?? 0;
    from--;
  }
  let to = at;
  while (to < cells.length && width + (cells[to]?.width ?? 0) <= WINDOW_WIDTH) {
    width += cells[to]?.width ?? 0;
    to++;
  }
  // Near the end of the line, the room left goes to more text before the column.
  while (from > 0 && width + (cells[from - 1]?.width ?? 0) <= WINDOW_WIDTH) {
    width += cells[from - 1]?.width ?? 0;
    from--;
  }
  return [from, to];
}

function cellsOf(line: string, regionStart: number, regionEnd: number): Cell[] {
  const cells: Cell[] = [];
  for (const { segment, index } of graphemes.segment(line.slice(regionStart, regionEnd))) {
    if (segment === '\t') {
      cells.push({ text: segment, index: regionStart + index, width: 1 });
      continue;
    }
    const text = escapeControlCharacters(segment);
    cells.push({ text, index: regionStart + index, width: stringWidth(text) });
  }
  return cells;
}

/** Moves an offset off the second half of a surrogate pair. */
function surrogateSafe(line: string, offset: number): number {
  const code = line.charCodeAt(offset);
  return code >= 0xdc00 && code <= 0xdfff && offset > 0 ? offset - 1 : offset;
}
