import type { Expr, TraversalExpr } from './ast.ts';

/** Every traversal inside an expression (through templates, tuples, objects, calls), in order. */
export function traversalsIn(expr: Expr): TraversalExpr[] {
  switch (expr.kind) {
    case 'traversal':
      return [
        expr,
        ...expr.steps.flatMap((step) => (step.kind === 'index' ? traversalsIn(step.key) : [])),
      ];
    case 'template':
      return expr.parts.flatMap((part) => (part.kind === 'text' ? [] : traversalsIn(part)));
    case 'tuple':
      return expr.items.flatMap(traversalsIn);
    case 'object':
      return expr.entries.flatMap((entry) => traversalsIn(entry.value));
    case 'call':
      return expr.args.flatMap(traversalsIn);
    default:
      return [];
  }
}

/** Every function call inside an expression, in order. */
export function callsIn(expr: Expr): Array<Extract<Expr, { kind: 'call' }>> {
  switch (expr.kind) {
    case 'call':
      return [expr, ...expr.args.flatMap(callsIn)];
    case 'template':
      return expr.parts.flatMap((part) => (part.kind === 'text' ? [] : callsIn(part)));
    case 'tuple':
      return expr.items.flatMap(callsIn);
    case 'object':
      return expr.entries.flatMap((entry) => callsIn(entry.value));
    case 'traversal':
      return expr.steps.flatMap((step) => (step.kind === 'index' ? callsIn(step.key) : []));
    default:
      return [];
  }
}

/** The first attribute step's name of a traversal (`inputs.city` → `city`). */
export function firstStepName(traversal: TraversalExpr): string | undefined {
  const [step] = traversal.steps;
  return step?.kind === 'attr' ? step.name : undefined;
}
