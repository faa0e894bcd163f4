import { readFileSync } from 'node:fs';
import type { Diagnostic } from '../../base/errors.ts';
import type { Body, SourceFile } from '../ast.ts';
import { findProjectFiles, type ProjectFile } from './discover.ts';
import { blockPathSegment, parseSource } from './source-parser.ts';

/** Every file of a project parsed, with all syntax diagnostics in file order. */
export interface ParsedProject {
  /** Absolute path of the project root. */
  root: string;
  files: SourceFile[];
  diagnostics: Diagnostic[];
  /** Paths of the files hcl2json checked (every file with `strictHcl`), in file order. */
  hclChecked: string[];
}

export interface ParseProjectOptions {
  /**
   * Run hcl2json on every file, not only on those sortie's parser has a diagnostic for
   * (`sortie verify --strict-hcl`, `SORTIE_STRICT_HCL=1`).
   */
  strictHcl?: boolean;
}

/**
 * Discovers, reads and parses a project's files with sortie's own parser
 * (positions and declaration order), which is differential-tested against hcl2json, the
 * grammar of record. hcl2json (Go in WASM: most of a cold `verify`'s time, and a heap that
 * never shrinks) checks only the files sortie's parser has a diagnostic for, or every file
 * with `strictHcl` (long runs of plain string text shortened, see hcl2json-input.ts).
 * When hcl2json rejects a file, its diagnostics replace sortie's for that file: HCL decides
 * what is valid HCL and words it, and reporting the same mistake twice in two wordings helps
 * nobody. Otherwise sortie's diagnostics (unsupported expressions, structural errors) stand.
 * Throws ProjectNotFoundError when the target is missing or holds no `.hcl` file.
 */
export async function parseProject(
  target: string,
  options: ParseProjectOptions = {},
): Promise<ParsedProject> {
  const { root, files } = await findProjectFiles(target);
  const strictHcl = options.strictHcl === true;
  const parsed = await Promise.all(files.map((file) => parseProjectFile(file, strictHcl)));
  return {
    root,
    files: parsed.map((result) => result.file),
    diagnostics: parsed.flatMap((result) => result.diagnostics),
    hclChecked: parsed.filter((result) => result.hclChecked).map((result) => result.file.path),
  };
}

interface ParsedFile {
  file: SourceFile;
  diagnostics: Diagnostic[];
  hclChecked: boolean;
}

async function parseProjectFile(projectFile: ProjectFile, strictHcl: boolean): Promise<ParsedFile> {
  // Read synchronously: a project's files are small and parsed synchronously right after, and
  // fs/promises' open, stat, read and close per file cost a cold `verify` several times the
  // main-thread CPU of readFileSync (bench/README.md).
  const text = readFileSync(projectFile.absolutePath, 'utf8');
  const own = parseSource(projectFile.path, text, projectFile.absolutePath);
  if (own.diagnostics.length === 0 && !strictHcl)
    return { file: own.file, diagnostics: own.diagnostics, hclChecked: false };
  // HCL's parser recurses once per level: input nested too deep overflows the stack inside
  // hcl2json (and takes its WASM runtime down), so sortie's own nesting error stands alone.
  if (own.tooDeep) return { file: own.file, diagnostics: own.diagnostics, hclChecked: false };
  // Only a file with a problem (or --strict-hcl) needs hcl2json: a valid project's load does
  // not load its module (nor start the grapheme segmenter its diagnostics use).
  const { checkWithHcl2Json } = await import('./hcl2json.ts');
  const { shortenLongTexts } = await import('./hcl2json-input.ts');
  const shortened = shortenLongTexts(text, own.longTextRuns);
  const verdict = await checkWithHcl2Json(projectFile.path, shortened.text);
  if (verdict.ok) return { file: own.file, diagnostics: own.diagnostics, hclChecked: true };
  const diagnostics = verdict.diagnostics.map((diagnostic) => {
    const column = shortened.originalColumn(diagnostic.line, diagnostic.column);
    return {
      ...diagnostic,
      column,
      endColumn: shortened.originalColumn(diagnostic.endLine, diagnostic.endColumn),
      path: blockPathAt(own.file.body, diagnostic.line, column),
    };
  });
  return { file: own.file, diagnostics, hclChecked: true };
}

/** The path of the innermost block whose span contains a position (hcl2json gives none). */
export function blockPathAt(body: Body, line: number, column: number): string[] {
  for (const block of body.blocks) {
    const { start, end } = block.span;
    const afterStart = line > start.line || (line === start.line && column >= start.column);
    const beforeEnd = line < end.line || (line === end.line && column < end.column);
    if (afterStart && beforeEnd) {
      return [blockPathSegment(block), ...blockPathAt(block.body, line, column)];
    }
  }
  return [];
}
