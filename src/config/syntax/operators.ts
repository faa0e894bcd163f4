import type { Scanner } from './scanner.ts';

/** What an unsupported operator is called in `unsupported expression: ...` messages. */
export type OperatorKind = 'arithmetic' | 'comparison' | 'logical operator';

const operatorKinds: Readonly<Record<string, OperatorKind>> = {
  '==': 'comparison',
  '!=': 'comparison',
  '<=': 'comparison',
  '>=': 'comparison',
  '&&': 'logical operator',
  '||': 'logical operator',
  '<': 'comparison',
  '>': 'comparison',
  '+': 'arithmetic',
  '-': 'arithmetic',
  '*': 'arithmetic',
  '/': 'arithmetic',
  '%': 'arithmetic',
};

/**
 * A binary operator at lastIndex (sticky). Two-character operators come first, so that `<=` is
 * not read as `<` followed by `=`. One native match, no allocation when there is none: nearly
 * every expression ends without an operator.
 */
const binaryOperator = /==|!=|<=|>=|&&|\|\||[<>+\-*/%]/y;

/** Consumes a binary operator at the cursor and returns its kind, or undefined if none. */
export function readBinaryOperator(scanner: Scanner): OperatorKind | undefined {
  binaryOperator.lastIndex = scanner.offset;
  const symbol = binaryOperator.exec(scanner.text)?.[0];
  if (symbol === undefined) return undefined;
  scanner.offset += symbol.length;
  return operatorKinds[symbol];
}
