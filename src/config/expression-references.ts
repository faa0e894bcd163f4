import type { CallExpr, Expr, TraversalExpr } from './ast.ts';

/** The expressions directly inside one: interpolations, items, values, arguments, index keys. */
export function childExpressions(expr: Expr): Expr[] {
  switch (expr.kind) {
    case 'traversal':
      return expr.steps.flatMap((step) => (step.kind === 'index' ? [step.key] : []));
    case 'template':
      return expr.parts.filter((part): part is Expr => part.kind !== 'text');
    case 'tuple':
      return expr.items;
    case 'object':
      return expr.entries.map((entry) => entry.value);
    case 'call':
      return expr.args;
    default:
      return [];
  }
}

/** Every traversal inside an expression (through templates, tuples, objects, calls), in order. */
export function traversalsIn(expr: Expr): TraversalExpr[] {
  const inside = childExpressions(expr).flatMap(traversalsIn);
  return expr.kind === 'traversal' ? [expr, ...inside] : inside;
}

/** Every function call inside an expression, in order. */
export function callsIn(expr: Expr): CallExpr[] {
  const inside = childExpressions(expr).flatMap(callsIn);
  return expr.kind === 'call' ? [expr, ...inside] : inside;
}

/** The first attribute step's name of a traversal (`inputs.city` → `city`). */
export function firstStepName(traversal: TraversalExpr): string | undefined {
  const [step] = traversal.steps;
  return step?.kind === 'attr' ? step.name : undefined;
}
