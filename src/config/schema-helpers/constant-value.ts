import type { Expr } from '../ast.ts';
import { diagnosticAt, type Diagnostic } from '../../base/errors.ts';
import { setOwn } from '../../base/own-property.ts';

/** The result of reading an expression as a constant: the value, or why it is not one. */
export type ConstantResult = { ok: true; value: unknown } | { ok: false; diagnostic: Diagnostic };

/**
 * Reads a constant value (defaults, descriptions, inline items): literals, templates made of
 * text only, tuples and objects of those. Anything else is "must be a constant value" at the
 * first offending node, so the caret points at the interpolation or reference itself. The
 * diagnostic's `path` is empty: callers know the block path and fill it in.
 */
export function constantValue(expr: Expr): ConstantResult {
  switch (expr.kind) {
    case 'literal':
      return { ok: true, value: expr.value };
    case 'template': {
      let text = '';
      for (const part of expr.parts) {
        if (part.kind !== 'text') return notConstant(part);
        text += part.value;
      }
      return { ok: true, value: text };
    }
    case 'tuple': {
      const items: unknown[] = [];
      for (const item of expr.items) {
        const result = constantValue(item);
        if (!result.ok) return result;
        items.push(result.value);
      }
      return { ok: true, value: items };
    }
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const entry of expr.entries) {
        const result = constantValue(entry.value);
        if (!result.ok) return result;
        setOwn(object, entry.key, result.value);
      }
      return { ok: true, value: object };
    }
    case 'traversal':
    case 'call':
      return notConstant(expr);
  }
}

function notConstant(expr: Expr): ConstantResult {
  return { ok: false, diagnostic: diagnosticAt(expr.span, 'must be a constant value', []) };
}
