/**
 * hcl2json reads every character of a file at WASM speed, so a string literal of megabytes
 * cost seconds and much memory (bench/README.md), though sortie only asks it whether the file
 * is valid HCL. A run of plain string text (no escape, interpolation, quote or line break: see
 * Scanner.longTextRuns) cannot change that verdict, so hcl2json sees each long run cut to its
 * first characters, and the columns of its diagnostics are moved back to the real file.
 */
import type { Span } from '../ast.ts';

/** Characters of a long run that hcl2json still sees. */
const KEPT = 16;

/** The text hcl2json checks, and the way back to the file's columns. */
export interface ShortenedSource {
  text: string;
  /** The file's UTF-16 column for a column on the same line of `text` (lines do not move). */
  originalColumn(line: number, column: number): number;
}

interface Cut {
  /** Column in the shortened line of the first character after the cut. */
  column: number;
  removed: number;
}

/** `text` with every run of `runs` (in file order) cut to its first KEPT characters. */
export function shortenLongTexts(text: string, runs: readonly Span[]): ShortenedSource {
  if (runs.length === 0) return { text, originalColumn: (_line, column) => column };
  const pieces: string[] = [];
  const cuts = new Map<number, Cut[]>();
  let copied = 0;
  for (const { start, end } of runs) {
    const keepEnd = pairSafe(text, start.offset + KEPT);
    pieces.push(text.slice(copied, keepEnd));
    copied = end.offset;
    const lineCuts = cuts.get(start.line) ?? [];
    const removedBefore = lineCuts.reduce((sum, cut) => sum + cut.removed, 0);
    const column = start.column + (keepEnd - start.offset) - removedBefore;
    lineCuts.push({ column, removed: end.offset - keepEnd });
    cuts.set(start.line, lineCuts);
  }
  pieces.push(text.slice(copied));
  return {
    text: pieces.join(''),
    originalColumn(line, column) {
      let shift = 0;
      for (const cut of cuts.get(line) ?? []) if (column >= cut.column) shift += cut.removed;
      return column + shift;
    },
  };
}

/** Moves a cut before a surrogate pair it would split. */
function pairSafe(text: string, offset: number): number {
  const code = text.charCodeAt(offset - 1);
  return code >= 0xd800 && code <= 0xdbff ? offset - 1 : offset;
}
