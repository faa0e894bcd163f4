import type { Span } from './span.ts';

/** Base class of every error sortie raises on purpose; subclasses carry data, never meaning in text. */
export class SortieError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** One problem found in a project's configuration. Lines and columns are 1-based. */
export interface Diagnostic {
  severity: 'error' | 'warning';
  message: string;
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Block path from the outside in, e.g. ['mission "research"', 'task "analyze"']. */
  path: string[];
  hint?: string;
}

/** A diagnostic located at a span; `path` is the enclosing block path, outside in. */
export function diagnosticAt(
  span: Span,
  message: string,
  path: readonly string[] = [],
  options: { severity?: 'error' | 'warning'; hint?: string } = {},
): Diagnostic {
  const diagnostic: Diagnostic = {
    severity: options.severity ?? 'error',
    message,
    file: span.file,
    line: span.start.line,
    column: span.start.column,
    endLine: span.end.line,
    endColumn: span.end.column,
    path: [...path],
  };
  if (options.hint !== undefined) diagnostic.hint = options.hint;
  return diagnostic;
}

/** The project could not be loaded: carries every diagnostic found (warnings included). */
export class ConfigError extends SortieError {
  constructor(readonly diagnostics: Diagnostic[]) {
    const errors = diagnostics.filter((d) => d.severity === 'error').length;
    super(`configuration has ${errors} error${errors === 1 ? '' : 's'}`);
  }
}

/** Wrong command-line usage or input (exit code 2), with a message fit to print as is. */
export class UsageError extends SortieError {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** A model provider failed a request. `retryable` is decided from status codes and error classes. */
export class ProviderError extends SortieError {
  constructor(
    message: string,
    readonly provider: string,
    readonly status: number | undefined,
    readonly retryable: boolean,
    readonly retryAfterMs?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A token or dollar budget was exhausted. */
export class BudgetExceededError extends SortieError {
  constructor(
    message: string,
    readonly scope: 'mission' | 'task',
    readonly subject: string,
  ) {
    super(message);
  }
}
