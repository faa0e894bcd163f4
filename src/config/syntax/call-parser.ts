import type { CallExpr, Expr } from '../ast.ts';
import type { ExpressionParser } from './expression-parser.ts';
import { unsupported } from './invalid-expr.ts';

/**
 * The argument list of a function call whose name was read; the cursor is on `(`. Newlines
 * and a trailing comma are allowed; an expansion (`xs...`) is reported as unsupported.
 */
export function parseCallRest(
  parser: ExpressionParser,
  name: string,
  start: number,
  nameEnd: number,
): CallExpr {
  const scanner = parser.scanner;
  scanner.offset++;
  const args: Expr[] = [];
  for (;;) {
    scanner.skipSpace(true);
    if (scanner.peek() === ')') break;
    args.push(parser.parseExpression(true));
    scanner.skipSpace(true);
    if (scanner.startsWith('...')) {
      const expansionStart = scanner.offset;
      scanner.offset += 3;
      unsupported(scanner, expansionStart, 'expansion');
      scanner.skipSpace(true);
    }
    if (scanner.peek() === ',') scanner.offset++;
    else if (scanner.peek() !== ')') scanner.failExpected("',' or ')'");
  }
  scanner.offset++;
  return {
    kind: 'call',
    name,
    nameSpan: scanner.span(start, nameEnd),
    args,
    span: scanner.span(start),
  };
}
