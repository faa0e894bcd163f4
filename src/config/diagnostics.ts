import { diagnosticAt, type Diagnostic } from '../base/errors.ts';
import type { Span } from './ast.ts';

/** Collects every diagnostic of a load, in the order found (sorted by position at the end). */
export class DiagnosticSink {
  readonly diagnostics: Diagnostic[] = [];

  /** Records an error at `span`. */
  error(span: Span, message: string, path: readonly string[], hint?: string): void {
    this.diagnostics.push(diagnosticAt(span, message, path, { severity: 'error', hint }));
  }

  /** Records a warning at `span`. */
  warning(span: Span, message: string, path: readonly string[], hint?: string): void {
    this.diagnostics.push(diagnosticAt(span, message, path, { severity: 'warning', hint }));
  }

  /** Adds diagnostics produced elsewhere (syntax layer, schema compiler). */
  add(diagnostics: readonly Diagnostic[]): void {
    this.diagnostics.push(...diagnostics);
  }

  get errorCount(): number {
    return this.diagnostics.filter((diagnostic) => diagnostic.severity === 'error').length;
  }
}

/** Orders diagnostics by file, then position; stable for equal positions (declaration order). */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((diagnostic, index) => ({ diagnostic, index }))
    .sort(
      (a, b) =>
        compareText(a.diagnostic.file, b.diagnostic.file) ||
        a.diagnostic.line - b.diagnostic.line ||
        a.diagnostic.column - b.diagnostic.column ||
        a.index - b.index,
    )
    .map(({ diagnostic }) => diagnostic);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
