import type { Position, Span } from '../ast.ts';

/**
 * Maps offsets of a text to 1-based lines and UTF-16 columns. A line ends at `\n`, so in a
 * CRLF file the `\r` is the last column of its line and never shifts later columns.
 * `base` places a snippet inside its file: offsets, lines and first-line columns are shifted.
 */
export class LineIndex {
  private readonly lineStarts: number[] = [0];
  /** The line (0-based) of the last position asked for: parsers ask in nearly ascending order. */
  private lastLine = 0;

  constructor(
    readonly file: string,
    readonly text: string,
    private readonly base: Position = { line: 1, column: 1, offset: 0 },
  ) {
    // indexOf runs natively: one step per line instead of one per character of cold code.
    for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) {
      this.lineStarts.push(index + 1);
    }
  }

  /** The file position of an offset into this index's text. */
  positionAt(offset: number): Position {
    let low = this.lastLine;
    if (!this.onLine(low, offset)) {
      low = 0;
      let high = this.lineStarts.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if ((this.lineStarts[middle] ?? 0) <= offset) low = middle;
        else high = middle - 1;
      }
      this.lastLine = low;
    }
    const column = offset - (this.lineStarts[low] ?? 0) + 1;
    return {
      line: this.base.line + low,
      column: low === 0 ? this.base.column + column - 1 : column,
      offset: this.base.offset + offset,
    };
  }

  /** True when `offset` lies on `line` (0-based; the last line runs to the end). */
  private onLine(line: number, offset: number): boolean {
    const start = this.lineStarts[line] ?? 0;
    const next = this.lineStarts[line + 1];
    return start <= offset && (next === undefined || offset < next);
  }

  /** The span between two offsets of this index's text (end exclusive). */
  span(start: number, end: number): Span {
    return { file: this.file, start: this.positionAt(start), end: this.positionAt(end) };
  }
}
