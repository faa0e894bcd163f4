import { ConfigError, type Diagnostic } from '../base/errors.ts';
import type { Body, Expr, SourceFile } from './ast.ts';
import { decodeProject } from './decode-project.ts';
import { childExpressions } from './expression-references.ts';
import { sortDiagnostics } from './diagnostics.ts';
import { builtinCatalog, type ModelCatalog } from './model-catalog.ts';
import { withoutPacketFiles } from './packet-files.ts';
// The syntax modules one by one, not their index: it also exports the diagnostic printer
// (string-width and its tables), which a load that prints nothing need not start.
import { isInvalidExpr } from './syntax/invalid-expr.ts';
import { loadTextFile } from './syntax/load-file.ts';
import { parseProject } from './syntax/parse-project.ts';
import { resolveProjectFolder } from './syntax/project-folder.ts';
import type { Config } from './config-types.ts';

export interface LoadOptions {
  /** `--var NAME=VALUE` values. */
  vars?: Record<string, string>;
  /** The environment variables are read from (default: `process.env`). */
  env?: Record<string, string | undefined>;
  /** The built-in model registry (tests may give a smaller one). */
  catalog?: ModelCatalog;
  /** Names of tools registered as TypeScript functions, which `tools.NAME` may refer to. */
  functionTools?: ReadonlySet<string>;
  /**
   * Check every file with hcl2json, the grammar of record, not only the files sortie's own
   * parser finds a problem in. Default: `SORTIE_STRICT_HCL` set to `1` or `true` in `env`.
   */
  strictHcl?: boolean;
}

/** Everything a load found, whether or not it succeeded: for `sortie verify` and editors. */
export interface ProjectAnalysis {
  /** Absolute project root. */
  root: string;
  /** File texts by path relative to the root (for printing source excerpts). */
  sources: Map<string, string>;
  /** Every diagnostic, errors and warnings, sorted by file and position. */
  diagnostics: Diagnostic[];
  /** The configuration; only meaningful when `diagnostics` holds no error. */
  config: Config;
  /** Paths of the files hcl2json checked (see `LoadOptions.strictHcl`). */
  hclChecked: string[];
}

/** A ConfigError that also carries the project's sources, so a printer can show excerpts. */
export class ProjectConfigError extends ConfigError {
  constructor(
    diagnostics: Diagnostic[],
    readonly root: string,
    readonly sources: Map<string, string>,
  ) {
    super(diagnostics);
  }
}

/** Parses, decodes and validates a project, collecting every diagnostic (never throws for config problems). */
export async function analyzeProject(
  target: string,
  options: LoadOptions = {},
): Promise<ProjectAnalysis> {
  const env = options.env ?? process.env;
  const project = await parseProject(target, {
    strictHcl: options.strictHcl ?? isSet(env.SORTIE_STRICT_HCL),
  });
  const resolveFolder = (fromFile: string, requested: string) =>
    resolveProjectFolder(project.root, fromFile, requested);
  const parsed = { root: project.root, ...withoutPacketFiles(project, resolveFolder) };
  const decoded = decodeProject(parsed.files, {
    root: parsed.root,
    catalog: options.catalog ?? builtinCatalog,
    vars: options.vars,
    env,
    loadText: (requested) => loadTextFile(parsed.root, requested),
    resolveFolder,
    ...(options.functionTools !== undefined ? { functionTools: options.functionTools } : {}),
  });
  const diagnostics = sortDiagnostics(
    withoutEchoes(parsed.files, parsed.diagnostics, decoded.diagnostics),
  );
  decoded.config.warnings = diagnostics.filter((diagnostic) => diagnostic.severity === 'warning');
  return {
    root: parsed.root,
    sources: new Map(parsed.files.map((file) => [file.path, file.text])),
    diagnostics,
    config: decoded.config,
    hclChecked: project.hclChecked,
  };
}

/**
 * Loads a project: the typed Config, with warnings in `config.warnings`. Throws ConfigError
 * (a ProjectConfigError) carrying every diagnostic when there is at least one error, and
 * ProjectNotFoundError when the target has no `.hcl` file.
 */
export async function loadProject(target: string, options: LoadOptions = {}): Promise<Config> {
  const analysis = await analyzeProject(target, options);
  if (analysis.diagnostics.some((diagnostic) => diagnostic.severity === 'error')) {
    throw new ProjectConfigError(analysis.diagnostics, analysis.root, analysis.sources);
  }
  return analysis.config;
}

/**
 * Semantic diagnostics of a file with real syntax errors are dropped: the parser recovered by
 * skipping text, so "missing attribute" and the like would only echo them. An unsupported
 * expression is different — the parser put a precise stand-in where it was — so there only a
 * semantic diagnostic at the stand-in's own position is dropped, and the rest of the file
 * is still checked.
 */
function withoutEchoes(
  files: readonly SourceFile[],
  syntax: readonly Diagnostic[],
  semantic: readonly Diagnostic[],
): Diagnostic[] {
  // Nothing to drop without a syntax diagnostic: skip walking every expression of the project.
  if (syntax.length === 0) return [...semantic];
  const key = (file: string, line: number, column: number): string => `${file}:${line}:${column}`;
  const at = (diagnostic: Diagnostic): string =>
    key(diagnostic.file, diagnostic.line, diagnostic.column);
  const standIns = new Set(
    files.flatMap((file) =>
      standInExpressions(file.body).map(({ span }) =>
        key(span.file, span.start.line, span.start.column),
      ),
    ),
  );
  const reported = new Set(syntax.map(at));
  const brokenFiles = new Set(
    syntax.filter((diagnostic) => !standIns.has(at(diagnostic))).map(({ file }) => file),
  );
  return [
    ...syntax,
    ...semantic.filter(
      (diagnostic) => !brokenFiles.has(diagnostic.file) && !reported.has(at(diagnostic)),
    ),
  ];
}

/** Every stand-in the parser left for an unsupported expression, anywhere in a body. */
function standInExpressions(body: Body): Expr[] {
  const found: Expr[] = [];
  const visit = (expr: Expr): void => {
    if (isInvalidExpr(expr)) found.push(expr);
    childExpressions(expr).forEach(visit);
  };
  const walk = (current: Body): void => {
    current.attributes.forEach((attribute) => visit(attribute.value));
    current.blocks.forEach((block) => walk(block.body));
  };
  walk(body);
  return found;
}

/** `1` or `true` (any case) turn a switch variable of the environment on. */
function isSet(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true'].includes(value.trim().toLowerCase());
}
