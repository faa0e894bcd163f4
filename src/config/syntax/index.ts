/** Public names of the configuration syntax layer: text → positioned AST + diagnostics. */
export { compareCodePoints, findProjectFiles } from './discover.ts';
export { ProjectNotFoundError } from './project-errors.ts';
export { parseExpression } from './expression-parser.ts';
export { formatDiagnostic } from './format-diagnostic.ts';
export { checkWithHcl2Json, diagnosticsFromHcl2JsonError } from './hcl2json.ts';
export { isInvalidExpr } from './invalid-expr.ts';
export { loadTextFile } from './load-file.ts';
export { projectFolderPath, resolveProjectFolder } from './project-folder.ts';
export { parseProject } from './parse-project.ts';
export { parseSource, blockPathSegment } from './source-parser.ts';
