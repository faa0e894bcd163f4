import type { Scanner } from './scanner.ts';

/** What an unsupported operator is called in `unsupported expression: ...` messages. */
export type OperatorKind = 'arithmetic' | 'comparison' | 'logical operator';

// Longest first, so that `<=` is not read as `<` followed by `=`.
const binaryOperators: Array<[string, OperatorKind]> = [
  ['==', 'comparison'],
  ['!=', 'comparison'],
  ['<=', 'comparison'],
  ['>=', 'comparison'],
  ['&&', 'logical operator'],
  ['||', 'logical operator'],
  ['<', 'comparison'],
  ['>', 'comparison'],
  ['+', 'arithmetic'],
  ['-', 'arithmetic'],
  ['*', 'arithmetic'],
  ['/', 'arithmetic'],
  ['%', 'arithmetic'],
];

/** The characters a binary operator starts with. */
const operatorStarts = '=!<>&|+-*/%';

/** Consumes a binary operator at the cursor and returns its kind, or undefined if none. */
export function readBinaryOperator(scanner: Scanner): OperatorKind | undefined {
  // Nearly every expression ends without one: one look at the next character settles it.
  const next = scanner.peek();
  if (next === '' || !operatorStarts.includes(next)) return undefined;
  for (const [symbol, kind] of binaryOperators) {
    if (scanner.startsWith(symbol)) {
      scanner.offset += symbol.length;
      return kind;
    }
  }
  return undefined;
}
