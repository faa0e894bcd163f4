import type { Expr } from '../ast.ts';
import { invalidExpr } from './invalid-expr.ts';
import type { Scanner } from './scanner.ts';
import { plainTextEnd, TemplateBuilder, type InterpolationParser } from './template-builder.ts';

/** Characters that end a run of plain text in a heredoc line. */
const HEREDOC_SPECIALS = /[$%\r\n]/g;

type Piece =
  { kind: 'text'; value: string; start: number; end: number } | { kind: 'expr'; expr: Expr };

/** Records a heredoc's pieces line by line, so that `<<-` can strip indentation afterwards. */
class HeredocLines extends TemplateBuilder {
  readonly lines: Piece[][] = [[]];

  override addText(value: string, start: number, end: number): void {
    const line = this.currentLine();
    const last = line[line.length - 1];
    if (last?.kind === 'text' && last.end === start) {
      last.value += value;
      last.end = end;
    } else {
      line.push({ kind: 'text', value, start, end });
    }
  }

  override addExpr(expr: Expr): void {
    this.currentLine().push({ kind: 'expr', expr });
  }

  newLine(): void {
    this.lines.push([]);
  }

  private currentLine(): Piece[] {
    return this.lines[this.lines.length - 1] ?? [];
  }
}

/** Parses a heredoc `<<EOT` / `<<-EOT` at the cursor, up to and including its closing marker. */
export function parseHeredoc(scanner: Scanner, interpolation: InterpolationParser): Expr {
  const start = scanner.offset;
  scanner.offset += 2;
  const flush = scanner.peek() === '-';
  if (flush) scanner.offset++;
  const marker = scanner.readIdentifier();
  if (marker === undefined) {
    scanner.fail(
      start,
      scanner.offset,
      'syntax error: expected a heredoc marker such as EOT after <<',
    );
  }
  const headerEnd = scanner.offset;
  if (!scanner.atNewline()) {
    scanner.fail(start, headerEnd, 'syntax error: a heredoc marker must be followed by a newline');
  }
  scanner.skipNewline();
  const collector = new HeredocLines(scanner);
  while (!atClosingMarker(scanner, marker)) {
    if (scanner.atEnd()) {
      scanner.fail(
        start,
        headerEnd,
        `syntax error: unterminated heredoc; no closing ${marker} line`,
      );
    }
    readLine(scanner, collector, interpolation);
  }
  collector.lines.pop();
  const builder = new TemplateBuilder(scanner);
  const lines = flush ? stripIndentation(collector.lines) : collector.lines;
  for (const piece of lines.flat()) {
    if (piece.kind === 'expr') builder.addExpr(piece.expr);
    else if (piece.value !== '') builder.addText(piece.value, piece.start, piece.end);
  }
  if (collector.sawDirective) return invalidExpr(scanner.span(start));
  return builder.finish(start, true);
}

/** At a line holding only the marker (spaces or tabs around it allowed): consumes it, true. */
function atClosingMarker(scanner: Scanner, marker: string): boolean {
  const text = scanner.text;
  let position = scanner.offset;
  while (text[position] === ' ' || text[position] === '\t') position++;
  if (!text.startsWith(marker, position)) return false;
  const markerEnd = position + marker.length;
  position = markerEnd;
  while (text[position] === ' ' || text[position] === '\t') position++;
  const ends =
    position === text.length || text[position] === '\n' || text.startsWith('\r\n', position);
  if (ends) scanner.offset = markerEnd;
  return ends;
}

function readLine(scanner: Scanner, collector: HeredocLines, interpolation: InterpolationParser) {
  for (;;) {
    if (scanner.atEnd()) return;
    if (scanner.atNewline()) {
      const newlineStart = scanner.offset;
      scanner.skipNewline();
      const newline = scanner.text.slice(newlineStart, scanner.offset);
      collector.addText(newline, newlineStart, scanner.offset);
      collector.newLine();
      return;
    }
    if (scanner.peek() === '\r') {
      // HCL ends a heredoc line only at `\n` or `\r\n`; a lone `\r` leaves the heredoc open.
      scanner.fail(
        scanner.offset,
        scanner.offset + 1,
        'syntax error: invalid character; a carriage return (\\r) in a heredoc is only allowed before a newline',
      );
    }
    const runEnd = plainTextEnd(scanner, HEREDOC_SPECIALS);
    if (runEnd > scanner.offset) {
      const runStart = scanner.offset;
      collector.addText(scanner.takePlainText(runEnd), runStart, runEnd);
    } else if (!collector.addSequence(interpolation)) {
      collector.addText(scanner.peek(), scanner.offset, scanner.offset + 1);
      scanner.offset++;
    }
  }
}

/**
 * HCL's `<<-` rule: the smallest indentation (spaces and tabs, one column each) among lines
 * that are not blank is removed from each such line; blank lines stay as written. A line
 * starting with an interpolation counts the whitespace before it (none: indentation 0).
 */
function stripIndentation(lines: Piece[][]): Piece[][] {
  const indents = lines.map(indentationOf);
  const counted = indents.filter((indent): indent is number => indent !== undefined);
  const smallest = counted.length === 0 ? 0 : Math.min(...counted);
  return lines.map((line, index) => {
    const first = line[0];
    if (indents[index] === undefined || first?.kind !== 'text' || smallest === 0) return line;
    const stripped = {
      ...first,
      value: first.value.slice(smallest),
      start: first.start + smallest,
    };
    return [stripped, ...line.slice(1)];
  });
}

/** Leading whitespace of a line, or undefined for a blank line. */
function indentationOf(line: Piece[]): number | undefined {
  const first = line[0];
  if (first === undefined) return undefined;
  if (first.kind === 'expr') return 0;
  let count = 0;
  while (first.value[count] === ' ' || first.value[count] === '\t') count++;
  const rest = first.value.slice(count);
  const blank = line.length === 1 && (rest === '' || rest === '\n' || rest === '\r\n');
  return blank ? undefined : count;
}
