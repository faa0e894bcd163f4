import type { Expr, LiteralExpr, Span } from '../ast.ts';
import type { Scanner } from './scanner.ts';

/**
 * Stand-ins for expressions that were reported as unsupported. The attribute keeps a value
 * (so that "missing attribute" errors do not pile up), and later layers ask `isInvalidExpr`
 * to skip further checks on it instead of reporting the same place twice.
 */
const invalidExpressions = new WeakSet<Expr>();

/** True for the null stand-in of an expression already reported as unsupported. */
export function isInvalidExpr(expr: Expr): boolean {
  return invalidExpressions.has(expr);
}

/** A null literal marked as the stand-in for an already reported expression. */
export function invalidExpr(span: Span): LiteralExpr {
  const expr: LiteralExpr = { kind: 'literal', value: null, span };
  invalidExpressions.add(expr);
  return expr;
}

/**
 * Reports `unsupported expression: WHAT` over a span and returns its stand-in. Diagnostics
 * recorded since `marker` (from inside the construct) are dropped: one report per construct.
 */
export function unsupported(
  scanner: Scanner,
  start: number,
  what: string,
  marker: number = scanner.diagnostics.length,
): LiteralExpr {
  scanner.diagnostics.length = Math.min(marker, scanner.diagnostics.length);
  scanner.report(start, scanner.offset, `unsupported expression: ${what}`);
  return invalidExpr(scanner.span(start));
}
