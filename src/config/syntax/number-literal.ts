import type { LiteralExpr } from '../ast.ts';
import { isDigit, type Scanner } from './scanner.ts';

/**
 * Reads an HCL number (`42`, `1.50`, `2.5e-3`) at the cursor. `start` is before the digits
 * when a `-` precedes them: the literal is then negative. `raw` keeps the text as written.
 */
export function readNumber(scanner: Scanner, start: number): LiteralExpr {
  const digitsStart = scanner.offset;
  const skipDigits = () => {
    while (isDigit(scanner.peek())) scanner.offset++;
  };
  skipDigits();
  if (scanner.peek() === '.' && isDigit(scanner.peek(1))) {
    scanner.offset++;
    skipDigits();
  }
  const exponent = scanner.peek().toLowerCase() === 'e';
  const sign = scanner.peek(1) === '+' || scanner.peek(1) === '-' ? 1 : 0;
  if (exponent && isDigit(scanner.peek(1 + sign))) {
    scanner.offset += 1 + sign;
    skipDigits();
  }
  const raw = (start < digitsStart ? '-' : '') + scanner.text.slice(digitsStart, scanner.offset);
  return { kind: 'literal', value: Number(raw), raw, span: scanner.span(start) };
}
