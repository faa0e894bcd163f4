import type { Diagnostic } from '../../base/errors.ts';
import { escapeControlCharacters } from '../../base/control-characters.ts';
import { excerpt } from './source-excerpt.ts';

/** The longest message printed whole. */
const MESSAGE_LIMIT = 1000;

const ansi = { red: '\u001b[31m', yellow: '\u001b[33m', bold: '\u001b[1m', reset: '\u001b[0m' };

/**
 * Renders a diagnostic in the shape of config.md "Diagnostics": severity and message, the
 * ` --> file:line:col` line, the source line under a gutter sized to the line number (a long
 * one cut around the column, see `excerpt`), a caret underline from column to endColumn (to
 * the end of the line when the span continues on later lines; at least one caret), then
 * `= in ...` and `= hint: ...` lines when present.
 * Without `sourceText` (or when the line does not exist) the source excerpt is left out.
 * Text from the project (messages quote it, the excerpt is it) shows control characters escaped.
 */
export function formatDiagnostic(
  diagnostic: Diagnostic,
  sourceText: string | undefined,
  options: { color: boolean },
): string {
  const gutter = ' '.repeat(String(diagnostic.line).length);
  const safe = escapeControlCharacters;
  const lines = [
    `${severityWord(diagnostic.severity, options.color)}: ${paint(safe(bounded(diagnostic.message)), 'bold', options.color)}`,
    `${gutter}--> ${safe(diagnostic.file)}:${diagnostic.line}:${diagnostic.column}`,
  ];
  const sourceLine = lineOf(sourceText, diagnostic.line);
  if (sourceLine !== undefined) {
    const end = diagnostic.endLine > diagnostic.line ? sourceLine.length : diagnostic.endColumn - 1;
    const shown = excerpt(sourceLine, diagnostic.column - 1, end);
    lines.push(`${gutter} |`);
    lines.push(`${diagnostic.line} | ${shown.text}`.trimEnd());
    lines.push(`${gutter} | ${shown.underline}`);
  }
  if (diagnostic.path.length > 0) {
    lines.push(`${gutter} = in ${safe(diagnostic.path.join(' › '))}`);
  }
  if (diagnostic.hint !== undefined) lines.push(`${gutter} = hint: ${safe(diagnostic.hint)}`);
  return lines.join('\n');
}

function severityWord(severity: Diagnostic['severity'], color: boolean): string {
  if (!color) return severity;
  return `${ansi.bold}${severity === 'error' ? ansi.red : ansi.yellow}${severity}${ansi.reset}`;
}

function paint(text: string, style: keyof typeof ansi, color: boolean): string {
  return color ? `${ansi[style]}${text}${ansi.reset}` : text;
}

/** The text of a 1-based line without its line break, or undefined if there is none. */
function lineOf(text: string | undefined, line: number): string | undefined {
  if (text === undefined || line < 1) return undefined;
  let start = 0;
  for (let current = 1; current < line; current++) {
    const newline = text.indexOf('\n', start);
    if (newline < 0) return undefined;
    start = newline + 1;
  }
  const end = text.indexOf('\n', start);
  const raw = text.slice(start, end < 0 ? undefined : end);
  return raw.endsWith('\r') ? raw.slice(0, -1) : raw;
}

/**
 * A message cut to MESSAGE_LIMIT characters: messages quote names from the source, and a
 * 5 MB name must not make a 5 MB line.
 */
function bounded(message: string): string {
  if (message.length <= MESSAGE_LIMIT) return message;
  const cut = message.slice(0, MESSAGE_LIMIT - 1);
  const last = cut.charCodeAt(cut.length - 1);
  return `${last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut}…`;
}
