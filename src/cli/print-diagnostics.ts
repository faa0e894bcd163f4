import type { Diagnostic } from '../base/errors.ts';
import { formatDiagnostic } from '../config/syntax/format-diagnostic.ts';

/** Prints diagnostics in the config.md shape, a blank line after each. */
export function printDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  write: (text: string) => void,
  color: boolean,
): void {
  for (const diagnostic of diagnostics) {
    write(`${formatDiagnostic(diagnostic, sources.get(diagnostic.file), { color })}\n\n`);
  }
}
