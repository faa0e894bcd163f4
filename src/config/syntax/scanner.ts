import type { Diagnostic } from '../../base/errors.ts';
import type { Span } from '../ast.ts';
import { diagnosticAt } from '../../base/errors.ts';
import type { LineIndex } from './text-position.ts';

/** Thrown after a syntax diagnostic was recorded, to unwind to the nearest recovery point. */
export class SyntaxAbort extends Error {}

const identifierStart = /\p{ID_Start}/u;
const identifierContinue = /\p{ID_Continue}/u;
/** A run of ASCII identifier characters at lastIndex (sticky): the usual whole identifier. */
const asciiIdentifierPart = /[A-Za-z0-9_-]*/y;
/** The characters skipSpace can skip from: space, tab, a line break, `#` and `/` (comments). */
const spaceStarts = ' \t\r\n#/';
/** A run of spaces and tabs at lastIndex (sticky). */
const spacesAndTabs = /[ \t]*/y;

/** True for a character that may begin an HCL identifier. */
export function isIdentifierStart(character: string): boolean {
  if (isAsciiLetter(character) || character === '_') return true;
  return character > '\u007f' && identifierStart.test(character);
}

/** True for a character that may continue an HCL identifier (HCL also allows `-`). */
export function isIdentifierPart(character: string): boolean {
  if (isAsciiLetter(character) || isDigit(character) || character === '_' || character === '-') {
    return true;
  }
  return character > '\u007f' && identifierContinue.test(character);
}

function isAsciiLetter(character: string): boolean {
  return (character >= 'a' && character <= 'z') || (character >= 'A' && character <= 'Z');
}

/** How deeply expressions or blocks may nest: far beyond real configs, far below stack limits. */
export const maximumNesting = 200;

/** The length from which a run of plain string text counts as long (see Scanner.longTextRuns). */
export const LONG_TEXT_RUN = 4096;

/** The diagnostic for nesting beyond `maximumNesting`. */
export const nestingMessage = `syntax error: nested more than ${maximumNesting} levels deep`;

/** True for an ASCII digit. */
export function isDigit(character: string): boolean {
  return character >= '0' && character <= '9';
}

/**
 * A cursor over one file's text shared by the body and expression parsers: character access,
 * whitespace and comment skipping, spans and the diagnostics collected so far.
 */
export class Scanner {
  offset = 0;
  readonly diagnostics: Diagnostic[] = [];
  /** Runs of plain string text of at least LONG_TEXT_RUN characters, in file order. */
  readonly longTextRuns: Span[] = [];
  /** Enclosing block path for diagnostics, e.g. ['mission "research"']. */
  path: string[] = [];
  /** Whether something nested beyond `maximumNesting` (see `failTooDeep`). */
  tooDeep = false;

  constructor(
    readonly text: string,
    readonly lines: LineIndex,
  ) {}

  /** The character `ahead` positions after the cursor, or '' past the end. */
  peek(ahead = 0): string {
    return this.text.charAt(this.offset + ahead);
  }

  startsWith(value: string): boolean {
    return this.text.startsWith(value, this.offset);
  }

  atEnd(): boolean {
    return this.offset >= this.text.length;
  }

  /** True at `\n` or `\r\n`. */
  atNewline(): boolean {
    const character = this.peek();
    return character === '\n' || (character === '\r' && this.peek(1) === '\n');
  }

  /** Consumes one newline (`\n` or `\r\n`). */
  skipNewline(): void {
    if (this.peek() === '\r') this.offset++;
    this.offset++;
  }

  /**
   * Skips spaces, tabs and comments; newlines too when `newlines` is set (inside brackets).
   * A `\r` that does not start `\r\n` is reported and skipped.
   * A line comment stops before its newline so that the newline still ends an item.
   */
  skipSpace(newlines: boolean): void {
    for (;;) {
      const character = this.peek();
      // Called before nearly every token, mostly at a character none of the cases below starts
      // with: one look-up settles that.
      if (character === '' || !spaceStarts.includes(character)) return;
      if (character === ' ' || character === '\t') this.skipSpacesAndTabs();
      else if (character === '\r' && this.peek(1) !== '\n') this.skipLoneCarriageReturn();
      else if (newlines && this.atNewline()) this.skipNewline();
      else if (character === '#' || this.startsWith('//')) this.skipLineComment();
      else if (this.startsWith('/*')) this.skipBlockComment();
      else return;
    }
  }

  /** Skips a run of spaces and tabs (an indentation) in one step rather than one per character. */
  private skipSpacesAndTabs(): void {
    spacesAndTabs.lastIndex = this.offset;
    spacesAndTabs.test(this.text);
    this.offset = spacesAndTabs.lastIndex;
  }

  /** HCL allows `\r` only before `\n` (outside strings and comments); it skips one alone. */
  private skipLoneCarriageReturn(): void {
    this.report(
      this.offset,
      this.offset + 1,
      'syntax error: invalid character; a carriage return (\\r) is only allowed before a newline',
    );
    this.offset++;
  }

  private skipLineComment(): void {
    while (!this.atEnd() && !this.atNewline()) this.offset++;
  }

  private skipBlockComment(): void {
    const start = this.offset;
    const end = this.text.indexOf('*/', this.offset + 2);
    if (end < 0) {
      this.report(start, start + 2, 'syntax error: unterminated comment; a /* comment needs */');
      this.offset = this.text.length;
      return;
    }
    this.offset = end + 2;
  }

  /** Reads an identifier at the cursor, or returns undefined without moving. */
  readIdentifier(): string | undefined {
    const start = this.offset;
    const first = this.codePointAt(this.offset);
    if (!isIdentifierStart(first)) return undefined;
    this.offset += first.length;
    // ASCII characters in one step; the loop below takes any others (and stops at the end).
    asciiIdentifierPart.lastIndex = this.offset;
    asciiIdentifierPart.test(this.text);
    this.offset = asciiIdentifierPart.lastIndex;
    for (;;) {
      const next = this.codePointAt(this.offset);
      if (!isIdentifierPart(next)) break;
      this.offset += next.length;
    }
    return this.text.slice(start, this.offset);
  }

  private codePointAt(offset: number): string {
    const point = this.text.codePointAt(offset);
    return point === undefined ? '' : String.fromCodePoint(point);
  }

  span(start: number, end: number = this.offset): Span {
    return this.lines.span(start, end);
  }

  /**
   * Takes the plain string text from the cursor to `end` (no escape, interpolation or line
   * break in it), noting a long run so hcl2json can be spared reading it (hcl2json-input.ts).
   */
  takePlainText(end: number): string {
    const start = this.offset;
    this.offset = end;
    if (end - start >= LONG_TEXT_RUN) this.longTextRuns.push(this.span(start, end));
    return this.text.slice(start, end);
  }

  /** Records an error diagnostic between two offsets. */
  report(start: number, end: number, message: string): void {
    this.reportSpan(this.span(start, end), message);
  }

  /**
   * Records an error diagnostic at a span, once: lookahead that backs up over a comment (an
   * operator after a value?) reads it again, and must not report it again.
   */
  reportSpan(span: Span, message: string): void {
    const last = this.diagnostics[this.diagnostics.length - 1];
    const { line, column } = span.start;
    if (last?.message === message && last.line === line && last.column === column) return;
    this.diagnostics.push(diagnosticAt(span, message, this.path));
  }

  /** Records a syntax error and unwinds to the nearest recovery point. */
  fail(start: number, end: number, message: string): never {
    this.report(start, Math.max(end, start), message);
    throw new SyntaxAbort(message);
  }

  /** Fails with `syntax error: expected X, found Y`, Y described from the cursor. */
  failExpected(what: string, end = this.offset + this.currentLength()): never {
    return this.fail(
      this.offset,
      end,
      `syntax error: expected ${what}, found ${this.describeHere()}`,
    );
  }

  /**
   * Reports nesting beyond `maximumNesting` at the cursor and unwinds. The file is marked, so
   * that it is not handed to hcl2json, whose parser recurses per level and overflows the stack.
   */
  failTooDeep(): never {
    this.tooDeep = true;
    return this.fail(this.offset, this.offset + 1, nestingMessage);
  }

  /** Describes the character at the cursor for "expected X, found Y" messages. */
  describeHere(): string {
    if (this.atEnd()) return 'end of file';
    if (this.atNewline()) return 'end of line';
    const character = this.codePointAt(this.offset);
    return character === '"' ? `'"'` : `"${character}"`;
  }

  /** Length of the current character (for one-character error spans). */
  currentLength(): number {
    if (this.atEnd() || this.atNewline()) return 0;
    return this.codePointAt(this.offset).length;
  }
}
