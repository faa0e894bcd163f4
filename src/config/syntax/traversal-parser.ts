import type { LiteralExpr, TraversalStep } from '../ast.ts';
import type { ExpressionParser } from './expression-parser.ts';
import { isDigit, maximumNesting } from './scanner.ts';

/**
 * Reads traversal steps after a term: `.name`, legacy `.0`, `[expr]`. Returns 'splat' after
 * consuming a splat (`.*` or `[*]`) and every step that follows it, in the same loop: HCL
 * nests what follows a splat inside it, so more than `maximumNesting` splats are reported as
 * too deep rather than recursed into. Spans: an attribute step covers its name, an index step
 * its brackets, a legacy index its digits.
 */
export function parseSteps(parser: ExpressionParser, newlines: boolean): TraversalStep[] | 'splat' {
  const scanner = parser.scanner;
  const steps: TraversalStep[] = [];
  let splats = 0;
  const splat = (): void => {
    if (++splats > maximumNesting) scanner.failTooDeep();
  };
  for (;;) {
    const before = scanner.offset;
    scanner.skipSpace(newlines);
    const character = scanner.peek();
    if (character === '.' && !scanner.startsWith('...')) {
      scanner.offset++;
      // Inside brackets, parentheses and interpolations HCL allows a newline after the dot too.
      scanner.skipSpace(newlines);
      if (scanner.peek() === '*') {
        splat();
        scanner.offset++;
        continue;
      }
      const stepStart = scanner.offset;
      if (isDigit(scanner.peek())) {
        while (isDigit(scanner.peek())) scanner.offset++;
        const raw = scanner.text.slice(stepStart, scanner.offset);
        const span = scanner.span(stepStart);
        const key: LiteralExpr = { kind: 'literal', value: Number(raw), raw, span };
        steps.push({ kind: 'index', key, span });
        continue;
      }
      const name = scanner.readIdentifier();
      if (name === undefined) return scanner.failExpected('an attribute name after "."');
      steps.push({ kind: 'attr', name, span: scanner.span(stepStart) });
    } else if (character === '[') {
      const stepStart = scanner.offset;
      scanner.offset++;
      scanner.skipSpace(true);
      const star = scanner.peek() === '*';
      const key = star ? undefined : parser.parseExpression(true);
      if (star) scanner.offset++;
      scanner.skipSpace(true);
      if (scanner.peek() !== ']') scanner.failExpected("']'");
      scanner.offset++;
      if (key === undefined) {
        splat();
        continue;
      }
      steps.push({ kind: 'index', key, span: scanner.span(stepStart) });
    } else {
      scanner.offset = before;
      return splats > 0 ? 'splat' : steps;
    }
  }
}
