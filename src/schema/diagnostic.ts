import type { Span } from '../config/ast.ts';
import type { Diagnostic } from '../errors.ts';

/** An error diagnostic covering `span`, attributed to the block `path`. */
export function errorAt(span: Span, message: string, path: readonly string[]): Diagnostic {
  return {
    severity: 'error',
    message,
    file: span.file,
    line: span.start.line,
    column: span.start.column,
    endLine: span.end.line,
    endColumn: span.end.column,
    path: [...path],
  };
}
