import { readFile } from 'node:fs/promises';
import type { Diagnostic } from '../../base/errors.ts';
import type { Body, SourceFile } from '../ast.ts';
import { findProjectFiles, type ProjectFile } from './discover.ts';
import { checkWithHcl2Json } from './hcl2json.ts';
import { shortenLongTexts } from './hcl2json-input.ts';
import { blockPathSegment, parseSource } from './source-parser.ts';

/** Every file of a project parsed, with all syntax diagnostics in file order. */
export interface ParsedProject {
  /** Absolute path of the project root. */
  root: string;
  files: SourceFile[];
  diagnostics: Diagnostic[];
}

/**
 * Discovers, reads and parses a project's files concurrently. Each file goes through both
 * sortie's own parser (positions and declaration order) and hcl2json (the grammar of record;
 * long runs of plain string text shortened, see hcl2json-input.ts).
 * When hcl2json rejects a file, its diagnostics replace sortie's for that file: HCL decides
 * what is valid HCL, and reporting the same mistake twice in two wordings helps nobody.
 * Otherwise sortie's diagnostics (unsupported expressions, structural errors) stand.
 * Throws ProjectNotFoundError when the target is missing or holds no `.hcl` file.
 */
export async function parseProject(target: string): Promise<ParsedProject> {
  const { root, files } = await findProjectFiles(target);
  const parsed = await Promise.all(files.map((file) => parseProjectFile(file)));
  return {
    root,
    files: parsed.map((result) => result.file),
    diagnostics: parsed.flatMap((result) => result.diagnostics),
  };
}

async function parseProjectFile(
  projectFile: ProjectFile,
): Promise<{ file: SourceFile; diagnostics: Diagnostic[] }> {
  const text = await readFile(projectFile.absolutePath, 'utf8');
  const own = parseSource(projectFile.path, text, projectFile.absolutePath);
  const shortened = shortenLongTexts(text, own.longTextRuns);
  const verdict = await checkWithHcl2Json(projectFile.path, shortened.text);
  if (verdict.ok) return own;
  const diagnostics = verdict.diagnostics.map((diagnostic) => {
    const column = shortened.originalColumn(diagnostic.line, diagnostic.column);
    return {
      ...diagnostic,
      column,
      endColumn: shortened.originalColumn(diagnostic.endLine, diagnostic.endColumn),
      path: blockPathAt(own.file.body, diagnostic.line, column),
    };
  });
  return { file: own.file, diagnostics };
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
