import { SortieError } from '../base/errors.ts';
import type { Expr, Span, TemplateExpr, TraversalExpr } from './ast.ts';
import { setOwn } from '../base/own-property.ts';

/** Values a kept expression may read at run time. */
export interface EvaluationScope {
  inputs?: Record<string, unknown>;
  vars?: Record<string, unknown>;
  /** The current dataset item (parallel iterations). */
  item?: unknown;
}

/** An expression could not be evaluated against its scope; `span` points at the cause. */
export class EvaluationError extends SortieError {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
  }
}

/** Evaluates an expression to a JSON value: templates to strings, tuples to arrays, objects to objects. */
export function evaluateExpression(expr: Expr, scope: EvaluationScope): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'template':
      return evaluateTemplate(expr, scope);
    case 'traversal':
      return evaluateTraversal(expr, scope);
    case 'tuple':
      return expr.items.map((item) => evaluateExpression(item, scope));
    case 'object': {
      const object: Record<string, unknown> = {};
      for (const entry of expr.entries) {
        setOwn(object, entry.key, evaluateExpression(entry.value, scope));
      }
      return object;
    }
    case 'call':
      throw new EvaluationError(
        `function ${expr.name}() cannot be evaluated at run time`,
        expr.nameSpan,
      );
  }
}

/** Evaluates a template to text; interpolated values are converted with `interpolationText`. */
export function evaluateTemplate(template: TemplateExpr, scope: EvaluationScope): string {
  let text = '';
  for (const part of template.parts) {
    text += part.kind === 'text' ? part.value : interpolationText(evaluateExpression(part, scope));
  }
  return text;
}

/** Evaluates any expression to text (a URL, a header value). */
export function evaluateToString(expr: Expr, scope: EvaluationScope): string {
  return interpolationText(evaluateExpression(expr, scope));
}

/**
 * How a value reads inside text: strings as they are, numbers and booleans printed, an
 * absent optional value (null/undefined) as nothing, lists and objects as compact JSON.
 */
export function interpolationText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function evaluateTraversal(traversal: TraversalExpr, scope: EvaluationScope): unknown {
  const roots: Record<string, unknown> = {
    inputs: scope.inputs,
    vars: scope.vars,
    item: scope.item,
  };
  if (
    !(traversal.root in roots) ||
    (traversal.root === 'item' ? !('item' in scope) : roots[traversal.root] === undefined)
  ) {
    throw new EvaluationError(`${traversal.root} is not available here`, traversal.rootSpan);
  }
  let value = roots[traversal.root];
  let path = traversal.root;
  for (const step of traversal.steps) {
    if (step.kind === 'attr') {
      value = property(value, step.name, path, step.span);
      path += `.${step.name}`;
    } else {
      const key = evaluateExpression(step.key, scope);
      value = indexed(value, key, path, step.span);
      path += `[${JSON.stringify(key)}]`;
    }
  }
  return value;
}

function property(value: unknown, name: string, path: string, span: Span): unknown {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new EvaluationError(
      `cannot read "${name}" of ${path}: it is ${describe(value)}, not an object`,
      span,
    );
  }
  return Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;
}

function indexed(value: unknown, key: unknown, path: string, span: Span): unknown {
  if (Array.isArray(value)) {
    if (typeof key !== 'number' || !Number.isInteger(key)) {
      throw new EvaluationError(`${path} is a list: index it with a whole number`, span);
    }
    if (key < 0 || key >= value.length) {
      throw new EvaluationError(
        `index ${key} is out of range: ${path} has ${value.length} items`,
        span,
      );
    }
    return value[key];
  }
  if (typeof key === 'string') return property(value, key, path, span);
  if (value === null || value === undefined) return undefined;
  throw new EvaluationError(`cannot index ${path}: it is ${describe(value)}`, span);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a bool';
  return 'an object';
}
