import type { Expr, Span } from '../ast.ts';
import { constantValue } from './constant-value.ts';
import { diagnosticAt, type Diagnostic } from '../../base/errors.ts';

/** Collects the diagnostics of one schema compilation, all attributed to one block path. */
export class SchemaReader {
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly path: readonly string[]) {}

  /** Records an error at `span`; returns undefined so callers can `return reader.error(...)`. */
  error(span: Span, message: string): undefined {
    this.diagnostics.push(diagnosticAt(span, message, this.path));
    return undefined;
  }

  /** Records a warning at `span`. */
  warning(span: Span, message: string, hint?: string): void {
    this.diagnostics.push(diagnosticAt(span, message, this.path, { severity: 'warning', hint }));
  }

  get failed(): boolean {
    return this.diagnostics.some((diagnostic) => diagnostic.severity === 'error');
  }

  /** A constant value, or undefined after reporting "must be a constant value". */
  constant(expr: Expr): { value: unknown } | undefined {
    const result = constantValue(expr);
    if (result.ok) return { value: result.value };
    this.diagnostics.push({ ...result.diagnostic, path: [...this.path] });
    return undefined;
  }
}

/** The string an expression holds when it is a constant string, else undefined. */
export function constantString(expr: Expr): string | undefined {
  const result = constantValue(expr);
  return result.ok && typeof result.value === 'string' ? result.value : undefined;
}

/** The boolean of a `true`/`false` literal, else undefined. */
export function literalBool(expr: Expr): boolean | undefined {
  return expr.kind === 'literal' && typeof expr.value === 'boolean' ? expr.value : undefined;
}

/** The name of a bare identifier (`string`, `any`), else undefined. */
export function bareName(expr: Expr): string | undefined {
  return expr.kind === 'traversal' && expr.steps.length === 0 ? expr.root : undefined;
}
