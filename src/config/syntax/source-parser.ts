import type { Diagnostic } from '../../base/errors.ts';
import type { Attribute, Block, Body, SourceFile, Span } from '../ast.ts';
import { ExpressionParser } from './expression-parser.ts';
import { maximumNesting, Scanner, SyntaxAbort } from './scanner.ts';
import { skipToItemEnd } from './skip.ts';
import { parseQuotedTemplate } from './template-parser.ts';
import { LineIndex } from './text-position.ts';

/** A parsed file and the syntax diagnostics found in it. */
export interface ParsedSource {
  file: SourceFile;
  diagnostics: Diagnostic[];
  /** Long runs of plain string text (see Scanner.longTextRuns). */
  longTextRuns: Span[];
  /** Whether something nested more than `maximumNesting` levels deep (see Scanner.tooDeep). */
  tooDeep: boolean;
}

/**
 * Parses one file's text into a positioned body (blocks and attributes in declaration order).
 * Never throws on bad input: each syntax problem becomes a diagnostic and parsing resumes at
 * the next line or closing brace. `path` is the file's path relative to the project root.
 */
export function parseSource(path: string, text: string, absolutePath: string = path): ParsedSource {
  const scanner = new Scanner(text, new LineIndex(path, text));
  if (text.startsWith('\uFEFF')) scanner.offset = 1;
  const body = new BodyParser(scanner).parseBody(false);
  return {
    file: { path, absolutePath, text, body },
    diagnostics: scanner.diagnostics,
    longTextRuns: scanner.longTextRuns,
    tooDeep: scanner.tooDeep,
  };
}

/** How a block appears in a diagnostic's path: its type and its quoted labels. */
export function blockPathSegment(block: Pick<Block, 'type' | 'labels'>): string {
  return [block.type, ...block.labels.map((label) => JSON.stringify(label))].join(' ');
}

const oneLineMessage =
  'syntax error: a one-line block holds at most one attribute and closes on the same line';

class BodyParser {
  private readonly expressions: ExpressionParser;
  private readonly attributeNames = new WeakMap<Body, Map<string, Attribute>>();

  constructor(private readonly scanner: Scanner) {
    this.expressions = new ExpressionParser(scanner);
  }

  /** Parses items up to the end of the text, or up to (not past) the `}` closing a block. */
  parseBody(inBlock: boolean): Body {
    const scanner = this.scanner;
    const body: Body = { attributes: [], blocks: [] };
    for (;;) {
      scanner.skipSpace(true);
      if (scanner.atEnd()) return body;
      if (scanner.peek() === '}') {
        if (inBlock) return body;
        scanner.report(scanner.offset, scanner.offset + 1, "syntax error: unexpected '}'");
        scanner.offset++;
        continue;
      }
      const itemStart = scanner.offset;
      try {
        this.parseItem(body);
      } catch (error) {
        if (!(error instanceof SyntaxAbort)) throw error;
        this.skipItem(itemStart);
      }
    }
  }

  /**
   * Recovers from a syntax error by skipping the whole item from its start, so brackets
   * opened before the error are closed where the item closes them — not left to be read as
   * stray `}` (1,000 levels of nesting cut at the limit gave 200 more errors that way).
   */
  private skipItem(itemStart: number): void {
    const scanner = this.scanner;
    scanner.offset = itemStart;
    skipToItemEnd(scanner);
    if (scanner.offset === itemStart && !scanner.atEnd() && !scanner.atNewline()) {
      if (scanner.peek() !== '}') scanner.offset++;
    }
  }

  private parseItem(body: Body): void {
    const scanner = this.scanner;
    const start = scanner.offset;
    const name = scanner.readIdentifier();
    if (name === undefined) return scanner.failExpected('an attribute or block');
    const nameEnd = scanner.offset;
    scanner.skipSpace(false);
    if (scanner.peek() === '=' && scanner.peek(1) !== '=') {
      this.addAttribute(body, this.parseAttributeRest(name, start, nameEnd));
    } else {
      body.blocks.push(this.parseBlock(name, start, nameEnd));
    }
    this.expectItemEnd();
  }

  /** The `= value` part of an attribute whose name was read. */
  private parseAttributeRest(name: string, start: number, nameEnd: number): Attribute {
    const scanner = this.scanner;
    scanner.offset++;
    scanner.skipSpace(false);
    const value = this.expressions.parseExpression(false);
    const nameSpan = scanner.span(start, nameEnd);
    return { kind: 'attribute', name, nameSpan, value, span: scanner.span(start) };
  }

  private addAttribute(body: Body, attribute: Attribute): void {
    // A map per body: a search of the list per attribute is quadratic in a generated file.
    let names = this.attributeNames.get(body);
    if (names === undefined) {
      names = new Map();
      this.attributeNames.set(body, names);
    }
    const first = names.get(attribute.name);
    if (first === undefined) {
      names.set(attribute.name, attribute);
      body.attributes.push(attribute);
      return;
    }
    this.scanner.reportSpan(
      attribute.nameSpan,
      `attribute "${attribute.name}" is set twice (first at line ${first.nameSpan.start.line})`,
    );
  }

  private parseBlock(type: string, start: number, typeEnd: number): Block {
    const scanner = this.scanner;
    const labels: string[] = [];
    const labelSpans = [];
    for (;;) {
      const labelStart = scanner.offset;
      const label = scanner.peek() === '"' ? this.quotedLabel() : scanner.readIdentifier();
      if (label === undefined) break;
      labels.push(label);
      labelSpans.push(scanner.span(labelStart));
      scanner.skipSpace(false);
    }
    if (scanner.peek() !== '{') {
      const what = labels.length === 0 ? `'=' or '{' after "${type}"` : "'{' to open the block";
      scanner.failExpected(what);
    }
    if (scanner.path.length >= maximumNesting) scanner.failTooDeep();
    const openEnd = scanner.offset + 1;
    scanner.offset = openEnd;
    const typeSpan = scanner.span(start, typeEnd);
    const segment = blockPathSegment({ type, labels });
    scanner.path = [...scanner.path, segment];
    let body: Body;
    try {
      scanner.skipSpace(false);
      const multiLine = scanner.atNewline() || scanner.atEnd();
      body = multiLine ? this.parseBody(true) : this.parseOneLineBody();
    } finally {
      scanner.path = scanner.path.slice(0, -1);
    }
    if (scanner.atEnd()) {
      scanner.report(start, openEnd, `syntax error: missing '}' to close the block ${segment}`);
    } else {
      scanner.offset++;
    }
    return { kind: 'block', type, typeSpan, labels, labelSpans, body, span: scanner.span(start) };
  }

  /**
   * HCL's one-line block `type "label" { name = value }`: at most one attribute, closed on the
   * same line. After a violation the rest is read as a normal body to keep collecting.
   */
  private parseOneLineBody(): Body {
    const scanner = this.scanner;
    const body: Body = { attributes: [], blocks: [] };
    if (scanner.peek() === '}') return body;
    const start = scanner.offset;
    try {
      const name = scanner.readIdentifier();
      const nameEnd = scanner.offset;
      scanner.skipSpace(false);
      if (name === undefined || scanner.peek() !== '=' || scanner.peek(1) === '=') {
        return scanner.fail(start, nameEnd, oneLineMessage);
      }
      body.attributes.push(this.parseAttributeRest(name, start, nameEnd));
      scanner.skipSpace(false);
      if (scanner.peek() !== '}') {
        scanner.fail(scanner.offset, scanner.offset + scanner.currentLength(), oneLineMessage);
      }
      return body;
    } catch (error) {
      if (!(error instanceof SyntaxAbort)) throw error;
      this.skipItem(start);
      if (scanner.peek() === '}') return body;
      const rest = this.parseBody(true);
      return { attributes: [...body.attributes, ...rest.attributes], blocks: rest.blocks };
    }
  }

  /** A quoted block label: a plain string, escapes allowed, no interpolation. */
  private quotedLabel(): string {
    const scanner = this.scanner;
    const start = scanner.offset;
    const template = parseQuotedTemplate(scanner, () => this.expressions.parseInterpolation());
    if (template.kind === 'template' && template.parts.every((part) => part.kind === 'text')) {
      return template.parts.map((part) => (part.kind === 'text' ? part.value : '')).join('');
    }
    return scanner.fail(
      start,
      scanner.offset,
      'syntax error: invalid block label; a label is a plain string without ${...}',
    );
  }

  /** After an item of a multi-line body: a newline or the end of the text. */
  private expectItemEnd(): void {
    const scanner = this.scanner;
    scanner.skipSpace(false);
    if (scanner.atEnd() || scanner.atNewline()) return;
    scanner.failExpected('a newline after the attribute or block');
  }
}
