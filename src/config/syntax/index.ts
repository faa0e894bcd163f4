/** Public names of the configuration syntax layer: text → positioned AST + diagnostics. */
export {
  compareCodePoints,
  findProjectFiles,
  type ProjectFile,
  type ProjectFiles,
} from './discover.ts';
export { ProjectNotFoundError, type ProjectProblem } from './project-errors.ts';
export { parseExpression, type ExpressionOptions } from './expression-parser.ts';
export { formatDiagnostic } from './format-diagnostic.ts';
export {
  checkWithHcl2Json,
  diagnosticsFromHcl2JsonError,
  type Hcl2JsonResult,
} from './hcl2json.ts';
export { isInvalidExpr } from './invalid-expr.ts';
export { loadTextFile, type LoadResult } from './load-file.ts';
export { projectFolderPath, resolveProjectFolder, type FolderResult } from './project-folder.ts';
export {
  blockPathAt,
  parseProject,
  type ParsedProject,
  type ParseProjectOptions,
} from './parse-project.ts';
export { parseSource, blockPathSegment, type ParsedSource } from './source-parser.ts';
export { LineIndex } from './text-position.ts';
export { diagnosticAt } from '../../base/errors.ts';
