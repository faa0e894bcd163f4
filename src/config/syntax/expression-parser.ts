import type { Diagnostic } from '../../base/errors.ts';
import type { Expr, LiteralExpr, Position, TraversalExpr } from '../ast.ts';
import { parseCallRest } from './call-parser.ts';
import { parseCollection } from './collection-parser.ts';
import { readNumber } from './number-literal.ts';
import { parseHeredoc } from './heredoc-parser.ts';
import { unsupported } from './invalid-expr.ts';
import { readBinaryOperator, type OperatorKind } from './operators.ts';
import { isDigit, maximumNesting, Scanner, SyntaxAbort } from './scanner.ts';
import { parseQuotedTemplate } from './template-parser.ts';
import { LineIndex } from './text-position.ts';
import { parseSteps } from './traversal-parser.ts';

/**
 * A recursive-descent parser for the HCL native expressions sortie supports. It reads from a
 * shared Scanner, so node spans are offsets into the whole file. `newlines` says whether a
 * newline may appear inside the expression (true within brackets and interpolations, false at
 * the top of an attribute or object item, where a newline ends the value). Constructs outside
 * the supported subset become an `unsupported expression: ...` diagnostic and a stand-in.
 */
export class ExpressionParser {
  /** Expressions currently open around the cursor (bounded, so no stack overflow). */
  private depth = 0;

  constructor(readonly scanner: Scanner) {}

  /** Parses a full expression, reporting operators and conditionals as unsupported. */
  parseExpression(newlines: boolean): Expr {
    const scanner = this.scanner;
    if (this.depth >= maximumNesting) scanner.failTooDeep();
    this.depth++;
    try {
      return this.parseOperatorChain(newlines);
    } finally {
      this.depth--;
    }
  }

  private parseOperatorChain(newlines: boolean): Expr {
    const scanner = this.scanner;
    const start = scanner.offset;
    const marker = scanner.diagnostics.length;
    const first = this.parseUnary(newlines);
    let operators: Set<OperatorKind> | undefined;
    for (;;) {
      const beforeSpace = scanner.offset;
      scanner.skipSpace(newlines);
      const operator = readBinaryOperator(scanner);
      if (operator !== undefined) {
        operators ??= new Set();
        operators.add(operator);
        scanner.skipSpace(newlines);
        this.parseUnary(newlines);
      } else if (scanner.peek() === '?') {
        scanner.offset++;
        this.parseConditionalRest(newlines);
        return unsupported(scanner, start, 'conditional', marker);
      } else {
        scanner.offset = beforeSpace;
        break;
      }
    }
    if (operators === undefined) return first;
    return unsupported(scanner, start, describeOperators(operators), marker);
  }

  private parseConditionalRest(newlines: boolean): void {
    const scanner = this.scanner;
    scanner.skipSpace(newlines);
    this.parseExpression(newlines);
    scanner.skipSpace(newlines);
    if (scanner.peek() !== ':') scanner.failExpected("':'");
    scanner.offset++;
    scanner.skipSpace(newlines);
    this.parseExpression(newlines);
  }

  /**
   * A term with optional prefix `!` or `-` (a `-` before a number is a negative literal). The
   * prefixes are read in a loop, not by recursion, and count as nesting (HCL nests one node
   * per operator): a chain of thousands is one diagnostic, not a stack overflow. The outermost
   * operator names the unsupported construct.
   */
  private parseUnary(newlines: boolean): Expr {
    const scanner = this.scanner;
    const start = scanner.offset;
    const outermost = scanner.peek();
    if (outermost !== '!' && outermost !== '-') return this.parsePostfix(newlines);
    const marker = scanner.diagnostics.length;
    for (let operators = 0; ; operators++) {
      if (this.depth + operators >= maximumNesting) scanner.failTooDeep();
      const character = scanner.peek();
      if (character !== '!' && character !== '-') {
        this.parsePostfix(newlines);
        break;
      }
      const operatorStart = scanner.offset;
      scanner.offset++;
      scanner.skipSpace(false);
      if (character === '-' && isDigit(scanner.peek())) {
        if (operatorStart === start) return this.parsePostfix(newlines, start);
        this.parsePostfix(newlines, operatorStart);
        break;
      }
    }
    return unsupported(
      scanner,
      start,
      outermost === '!' ? 'logical operator' : 'arithmetic',
      marker,
    );
  }

  /** A term followed by traversal steps. `negativeFrom` marks a `-` before a number. */
  private parsePostfix(newlines: boolean, negativeFrom?: number): Expr {
    const scanner = this.scanner;
    const start = negativeFrom ?? scanner.offset;
    const marker = scanner.diagnostics.length;
    const term = this.parseTerm(newlines, negativeFrom);
    const steps = parseSteps(this, newlines);
    if (steps === 'splat') return unsupported(scanner, start, 'splat', marker);
    if (steps.length === 0) return term;
    if (term.kind !== 'traversal' || term.steps.length > 0) {
      return unsupported(scanner, start, 'index or attribute access on a computed value', marker);
    }
    const traversal: TraversalExpr = { ...term, steps, span: scanner.span(start) };
    return traversal;
  }

  private parseTerm(newlines: boolean, negativeFrom?: number): Expr {
    const scanner = this.scanner;
    const start = scanner.offset;
    const character = scanner.peek();
    if (isDigit(character)) return readNumber(scanner, negativeFrom ?? start);
    if (character === '"') return parseQuotedTemplate(scanner, () => this.parseInterpolation());
    if (scanner.startsWith('<<')) return parseHeredoc(scanner, () => this.parseInterpolation());
    if (character === '[' || character === '{') return parseCollection(this);
    if (character === '(') return this.parseParenthesized();
    const name = scanner.readIdentifier();
    if (name === undefined) return scanner.failExpected('an expression');
    if (name === 'true' || name === 'false' || name === 'null') {
      const value = name === 'null' ? null : name === 'true';
      const literal: LiteralExpr = { kind: 'literal', value, span: scanner.span(start) };
      return literal;
    }
    const nameEnd = scanner.offset;
    scanner.skipSpace(false);
    if (scanner.peek() === '(') return parseCallRest(this, name, start, nameEnd);
    scanner.offset = nameEnd;
    const span = scanner.span(start);
    return { kind: 'traversal', root: name, rootSpan: span, steps: [], span };
  }

  private parseParenthesized(): Expr {
    const scanner = this.scanner;
    const start = scanner.offset;
    const marker = scanner.diagnostics.length;
    scanner.offset++;
    scanner.skipSpace(true);
    this.parseExpression(true);
    scanner.skipSpace(true);
    if (scanner.peek() !== ')') scanner.failExpected("')'");
    scanner.offset++;
    return unsupported(scanner, start, 'parentheses', marker);
  }

  /** Parses `${ expr }` at the cursor. Strip markers (`${~ ~}`) are reported as unsupported. */
  parseInterpolation(): Expr {
    const scanner = this.scanner;
    scanner.offset += 2;
    this.reportStripMarker();
    scanner.skipSpace(true);
    const expr = this.parseExpression(true);
    scanner.skipSpace(true);
    this.reportStripMarker();
    if (scanner.peek() !== '}') scanner.failExpected("'}'");
    scanner.offset++;
    return expr;
  }

  private reportStripMarker(): void {
    if (this.scanner.peek() !== '~') return;
    const start = this.scanner.offset;
    this.scanner.offset++;
    unsupported(this.scanner, start, 'template strip marker');
  }
}

function describeOperators(operators: Set<OperatorKind>): string {
  // The lowest-precedence operator is the outermost node, so it names the whole expression.
  for (const kind of ['logical operator', 'comparison', 'arithmetic'] as const) {
    if (operators.has(kind)) return kind;
  }
  return 'arithmetic';
}

/** Options for parsing a snippet: where it sits in its file, and its enclosing block path. */
export interface ExpressionOptions {
  file?: string;
  start?: Position;
  path?: string[];
}

/**
 * Parses one expression from a snippet. `start` places the snippet in its file so that spans
 * are file positions. Trailing text other than whitespace and comments is a syntax error.
 */
export function parseExpression(
  text: string,
  options: ExpressionOptions = {},
): { expr: Expr | undefined; diagnostics: Diagnostic[] } {
  const scanner = new Scanner(
    text,
    new LineIndex(options.file ?? '<expression>', text, options.start),
  );
  scanner.path = options.path ?? [];
  const parser = new ExpressionParser(scanner);
  try {
    scanner.skipSpace(true);
    const expr = parser.parseExpression(true);
    scanner.skipSpace(true);
    if (!scanner.atEnd()) scanner.failExpected('the end of the expression', text.length);
    return { expr, diagnostics: scanner.diagnostics };
  } catch (error) {
    if (error instanceof SyntaxAbort) return { expr: undefined, diagnostics: scanner.diagnostics };
    throw error;
  }
}
