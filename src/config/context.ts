import type { Span } from './ast.ts';
import type { DiagnosticSink } from './diagnostics.ts';
import type { VariableConfig } from './config-types.ts';
import type { FolderResult } from './syntax/project-folder.ts';

/** The outcome of reading a file for `load()` (the syntax layer's rules). */
export type LoadTextResult = { ok: true; text: string } | { ok: false; message: string };

/** What every decoder needs: where to report, where it is, and the project-wide facts. */
export interface DecodeContext {
  sink: DiagnosticSink;
  /** Block path from the outside in, e.g. ['mission "research"', 'task "analyze"']. */
  path: readonly string[];
  /** Reads a file for `load(path)`, relative to the project root. */
  loadText: (requested: string) => LoadTextResult;
  /** Resolves a folder path written in `fromFile` (a packet's `path`), checking it on disk. */
  resolveFolder: (fromFile: string, requested: string) => FolderResult;
  /** Variables with their values (for `vars.*` in static strings): declared, and undeclared ones used so far. */
  variables: ReadonlyMap<string, VariableConfig>;
  /**
   * The variable `vars.NAME` reads: the declared one, or an undeclared one read like a secret
   * variable (a warning at its first use names the missing block).
   */
  useVariable: (name: string, span: Span, path: readonly string[]) => VariableConfig;
}

/** The same context, one block deeper. */
export function within(context: DecodeContext, segment: string): DecodeContext {
  return { ...context, path: [...context.path, segment] };
}

/**
 * Records an error at `span`, placed at the context's block path; returns undefined so that
 * callers can `return errorAt(...)`.
 */
export function errorAt(
  context: DecodeContext,
  span: Span,
  message: string,
  hint?: string,
): undefined {
  context.sink.error(span, message, context.path, hint);
  return undefined;
}

/** Records a warning at `span`, placed at the context's block path. */
export function warningAt(
  context: DecodeContext,
  span: Span,
  message: string,
  hint?: string,
): void {
  context.sink.warning(span, message, context.path, hint);
}

/** A span from the start of `first` to the end of `last`. */
export function joinSpans(first: Span, last: Span): Span {
  return { file: first.file, start: first.start, end: last.end };
}
