import type { Expr, ObjectEntry, ObjectExpr, TupleExpr } from '../ast.ts';
import type { ExpressionParser } from './expression-parser.ts';
import { isInvalidExpr, unsupported } from './invalid-expr.ts';
import { isIdentifierStart, type Scanner } from './scanner.ts';
import { skipBalanced } from './skip.ts';

/**
 * Tuples `[a, b,]` and objects `{ k = v, "k2": v }` at the cursor. Inside a tuple newlines are
 * insignificant; inside an object they separate items like commas do. A `for` expression in
 * either bracket is reported as unsupported.
 */
export function parseCollection(parser: ExpressionParser): Expr {
  const scanner = parser.scanner;
  const start = scanner.offset;
  const marker = scanner.diagnostics.length;
  const isTuple = scanner.peek() === '[';
  scanner.offset++;
  scanner.skipSpace(true);
  if (atForKeyword(scanner)) {
    skipBalanced(scanner, isTuple ? ']' : '}');
    return unsupported(scanner, start, 'for expression', marker);
  }
  return isTuple ? parseTupleRest(parser, start) : parseObjectRest(parser, start);
}

/** `for` followed by whitespace and a name: the start of a `for` expression. */
function atForKeyword(scanner: Scanner): boolean {
  if (!scanner.startsWith('for')) return false;
  let position = scanner.offset + 3;
  const whitespace = ' \t\r\n';
  if (!whitespace.includes(scanner.text.charAt(position))) return false;
  while (whitespace.includes(scanner.text.charAt(position)) && position < scanner.text.length) {
    position++;
  }
  return isIdentifierStart(scanner.text.charAt(position));
}

function parseTupleRest(parser: ExpressionParser, start: number): TupleExpr {
  const scanner = parser.scanner;
  const items: Expr[] = [];
  for (;;) {
    scanner.skipSpace(true);
    if (scanner.peek() === ']') break;
    items.push(parser.parseExpression(true));
    scanner.skipSpace(true);
    if (scanner.peek() === ',') scanner.offset++;
    else if (scanner.peek() !== ']') scanner.failExpected("',' or ']'");
  }
  scanner.offset++;
  return { kind: 'tuple', items, span: scanner.span(start) };
}

function parseObjectRest(parser: ExpressionParser, start: number): ObjectExpr {
  const scanner = parser.scanner;
  const entries: ObjectEntry[] = [];
  for (;;) {
    scanner.skipSpace(true);
    if (scanner.peek() === '}') break;
    const keyStart = scanner.offset;
    const key = objectKey(parser, parser.parseExpression(false), keyStart);
    const keySpan = scanner.span(keyStart);
    scanner.skipSpace(false);
    const separator = scanner.peek();
    if (separator !== '=' && separator !== ':')
      scanner.failExpected("'=' or ':' after the object key");
    scanner.offset++;
    scanner.skipSpace(false);
    const value = parser.parseExpression(false);
    if (key !== undefined) entries.push({ key, keySpan, value });
    scanner.skipSpace(false);
    if (scanner.peek() === ',') scanner.offset++;
    else if (!scanner.atNewline() && scanner.peek() !== '}')
      scanner.failExpected("',', a newline or '}' after the object item");
  }
  scanner.offset++;
  return { kind: 'object', entries, span: scanner.span(start) };
}

/**
 * The key as written: a bare name (keywords included), a string without interpolation, or a
 * number's text. Anything computed (`a.b`, `"${x}"`, `(k)`) is reported as unsupported.
 */
function objectKey(parser: ExpressionParser, expr: Expr, start: number): string | undefined {
  const scanner = parser.scanner;
  if (isInvalidExpr(expr)) return undefined;
  if (expr.kind === 'traversal' && expr.steps.length === 0) return expr.root;
  if (expr.kind === 'literal') {
    return expr.raw ?? scanner.text.slice(start, scanner.offset);
  }
  if (
    expr.kind === 'template' &&
    !expr.heredoc &&
    expr.parts.every((part) => part.kind === 'text')
  ) {
    return expr.parts.map((part) => (part.kind === 'text' ? part.value : '')).join('');
  }
  unsupported(scanner, start, 'computed object key');
  return undefined;
}
