import type { Diagnostic } from '../../base/errors.ts';
import { reasonOf } from '../../base/reason.ts';
import { escapeRegExp } from '../../base/redact.ts';

/**
 * The grammar of record: `@cdktf/hcl2json`, HashiCorp's HCL parser compiled to WASM. sortie
 * builds its own positioned AST (source-parser.ts) but runs every file through hcl2json too,
 * so that whatever HCL rejects is rejected with HCL's own wording and position.
 */

type ParseFunction = (filename: string, contents: string) => Promise<Record<string, unknown>>;

let parserLoading: Promise<ParseFunction> | undefined;

/**
 * Loads the package once per process. Importing it starts the WASM instantiation, a large
 * part of a cold start (docs/decisions.md, "hcl2json is the grammar of record"), so it is
 * deferred until the first file is checked.
 */
function loadParser(): Promise<ParseFunction> {
  parserLoading ??= import('@cdktf/hcl2json').then((module) => module.parse as ParseFunction);
  return parserLoading;
}

/**
 * hcl2json's verdict on one file: valid HCL with its JSON (none when HCL parsed the file but
 * the JSON form cannot hold it), or its syntax errors as diagnostics.
 */
export type Hcl2JsonResult =
  { ok: true; json?: Record<string, unknown> } | { ok: false; diagnostics: Diagnostic[] };

/**
 * hcl2json parsed the file (its syntax errors say `parse config: ...`), then failed to write
 * it as JSON (`convert to HCL: ...`): a block type used both with and without labels
 * (`variable { }` beside `variable "c" { }`) has no JSON form. HCL accepts the file.
 */
const JSON_CONVERSION_FAILURE = /^convert to HCL: /;

/** Parses `text` with hcl2json; `file` is the project-relative path used in diagnostics. */
export async function checkWithHcl2Json(file: string, text: string): Promise<Hcl2JsonResult> {
  const parse = await loadParser();
  try {
    return { ok: true, json: await parse(file, text) };
  } catch (error) {
    const message = reasonOf(error);
    if (JSON_CONVERSION_FAILURE.test(message)) return { ok: true };
    return { ok: false, diagnostics: diagnosticsFromHcl2JsonError(file, text, message) };
  }
}

/**
 * Turns hcl2json's error text into diagnostics. The tool has no structured errors, so this is
 * the one place where sortie reads an error message: `parse config: [D D ...]` where each D is
 * `FILE:LINE,COL-[ENDLINE,]ENDCOL: Summary; Detail.` and the Ds are separated by spaces.
 * HCL counts columns in characters (grapheme clusters); they are converted to UTF-16 columns.
 */
export function diagnosticsFromHcl2JsonError(
  file: string,
  text: string,
  message: string,
): Diagnostic[] {
  const header = new RegExp(`${escapeRegExp(file)}:(\\d+),(\\d+)-(?:(\\d+),)?(\\d+): `, 'g');
  const matches = [...message.matchAll(header)];
  if (matches.length === 0) {
    const summary = cleanSummary(message.replace(/^parse config: /, ''));
    return [
      syntaxDiagnostic(file, text, { line: 1, column: 1, endLine: 1, endColumn: 1 }, summary),
    ];
  }
  const found = matches.map((match, index) => {
    const bodyStart = (match.index ?? 0) + match[0].length;
    const next = matches[index + 1];
    let body = message.slice(bodyStart, next === undefined ? undefined : next.index);
    body = body.trimEnd();
    if (next === undefined && body.endsWith(']')) body = body.slice(0, -1);
    const line = Number(match[1]);
    const endLine = match[3] === undefined ? line : Number(match[3]);
    const position = { line, column: Number(match[2]), endLine, endColumn: Number(match[4]) };
    const diagnostic = syntaxDiagnostic(file, text, position, cleanSummary(body));
    return { diagnostic, unterminated: body.startsWith('Unterminated ') };
  });
  return withoutCascades(found);
}

/**
 * One diagnostic per problem. HCL reports a string with a missing closing quote once per
 * newline it runs over ("invalid multi-line string") and once more at its start
 * ("unterminated template string"): the string ran to the end of the file, so every later
 * complaint is about text inside it. Only the unterminated one is kept from its position on,
 * and of several diagnostics at one position only the first.
 */
function withoutCascades(
  found: ReadonlyArray<{ diagnostic: Diagnostic; unterminated: boolean }>,
): Diagnostic[] {
  const before = (a: Diagnostic, b: Diagnostic): boolean =>
    a.line < b.line || (a.line === b.line && a.column < b.column);
  const unterminated = found
    .filter((entry) => entry.unterminated)
    .map((entry) => entry.diagnostic)
    .reduce<Diagnostic | undefined>(
      (earliest, next) => (earliest === undefined || before(next, earliest) ? next : earliest),
      undefined,
    );
  const kept = found
    .map((entry) => entry.diagnostic)
    .filter(
      (diagnostic) =>
        unterminated === undefined ||
        diagnostic === unterminated ||
        before(diagnostic, unterminated),
    );
  const positions = new Set<string>();
  const ordered = unterminated === undefined ? kept : [unterminated, ...kept];
  return ordered.filter((diagnostic) => {
    const position = `${diagnostic.line}:${diagnostic.column}`;
    if (positions.has(position)) return false;
    positions.add(position);
    return true;
  });
}

/** HCL's start and end of a problem, columns counted in characters. */
type HclPosition = Pick<Diagnostic, 'line' | 'column' | 'endLine' | 'endColumn'>;

function syntaxDiagnostic(
  file: string,
  text: string,
  { line, column, endLine, endColumn }: HclPosition,
  message: string,
): Diagnostic {
  return {
    severity: 'error',
    message,
    file,
    line,
    column: toUtf16Column(text, line, column),
    endLine,
    endColumn: toUtf16Column(text, endLine, endColumn),
    path: [],
  };
}

/** `Invalid expression; Expected X.` → `syntax error: invalid expression; expected X.` */
function cleanSummary(body: string): string {
  const separator = body.indexOf('; ');
  const summary = separator < 0 ? body : body.slice(0, separator);
  const detail = separator < 0 ? '' : body.slice(separator + 2);
  const parts = [lowerFirst(summary.trim()), detail === '' ? '' : lowerFirst(detail.trim())];
  return `syntax error: ${parts.filter((part) => part !== '').join('; ')}`;
}

/** Lower-cases a leading capital unless it starts an acronym or a name like `HCL`. */
function lowerFirst(value: string): string {
  const second = value.charAt(1);
  if (second !== '' && second === second.toUpperCase() && second !== second.toLowerCase())
    return value;
  return value.charAt(0).toLowerCase() + value.slice(1);
}

// Created on first use: starting ICU's segmenter costs a cold process tens of milliseconds.
let graphemes: Intl.Segmenter | undefined;

/** Converts HCL's character column on a line to a UTF-16 column. */
function toUtf16Column(text: string, line: number, column: number): number {
  let lineStart = 0;
  for (let current = 1; current < line; current++) {
    const newline = text.indexOf('\n', lineStart);
    if (newline < 0) return column;
    lineStart = newline + 1;
  }
  const lineEnd = text.indexOf('\n', lineStart);
  const lineText = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  let units = 0;
  let characters = 1;
  graphemes ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment } of graphemes.segment(lineText)) {
    if (characters === column) return units + 1;
    units += segment.length;
    characters++;
  }
  return units + 1 + (column - characters);
}
