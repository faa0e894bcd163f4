/**
 * The evals of a project: every `*.hcl` file of its `.evals/` folder (docs/eval.md), which the
 * project loader and the reference runtime skip as they skip every folder starting with `.`.
 * Decoded against the loaded project, every problem a diagnostic at its file:line:col.
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic } from '../../base/errors.ts';
import type { Span } from '../../config/ast.ts';
import { checkBody } from '../../config/body.ts';
import type { Config, VariableConfig } from '../../config/config-types.ts';
import type { DecodeContext } from '../../config/context.ts';
import { DiagnosticSink, sortDiagnostics } from '../../config/diagnostics.ts';
import { loadTextFile } from '../../config/syntax/load-file.ts';
import { parseProject } from '../../config/syntax/parse-project.ts';
import { resolveProjectFolder } from '../../config/syntax/project-folder.ts';
import { decodeEval, evalFolder } from './decode-eval.ts';
import type { EvalDefinition } from './eval-types.ts';

/** The folder of a project that holds its evals. */
export const EVALS_FOLDER = '.evals';

/** What loading a project's evals found. */
export interface EvalAnalysis {
  /** The evals that decoded without errors, in file order. */
  evals: EvalDefinition[];
  /** Every diagnostic, file paths relative to the project root (`.evals/x.hcl`). */
  diagnostics: Diagnostic[];
  /** File texts by the same paths, for source excerpts. */
  sources: Map<string, string>;
  /** Whether the project has an `.evals/` folder with `.hcl` files. */
  found: boolean;
}

/** Loads and checks the evals of a loaded project (none when it has no `.evals/` folder). */
export async function analyzeEvals(config: Config): Promise<EvalAnalysis> {
  const folder = join(config.root, EVALS_FOLDER);
  const empty: EvalAnalysis = { evals: [], diagnostics: [], sources: new Map(), found: false };
  const isFolder = await stat(folder).then(
    (found) => found.isDirectory(),
    () => false,
  );
  if (!isFolder) return empty;
  const parsed = await parseProject(folder).catch(() => undefined);
  if (parsed === undefined) return empty;
  const sink = new DiagnosticSink();
  const context: DecodeContext = {
    sink,
    path: [],
    loadText: (requested) => loadTextFile(folder, requested),
    resolveFolder: (fromFile, requested) => resolveProjectFolder(folder, fromFile, requested),
    variables: config.variables,
    useVariable: (name, span) => config.variables.get(name) ?? undeclared(name, span),
  };
  const evals: EvalDefinition[] = [];
  const names = new Set<string>();
  for (const file of parsed.files) {
    const fileSpan = { file: file.path, start: origin, end: origin };
    const { blocks } = checkBody(
      file.body,
      { attributes: [], blocks: ['eval'] },
      context,
      fileSpan,
    );
    for (const block of blocks) {
      const where = { file: `${EVALS_FOLDER}/${file.path}`, folder: evalFolder(folder, file.path) };
      const decoded = decodeEval(block, config, where, context);
      if (decoded === undefined) continue;
      if (names.has(decoded.name)) {
        sink.error(decoded.span, `duplicate eval "${decoded.name}"`, [`eval "${decoded.name}"`]);
        continue;
      }
      names.add(decoded.name);
      evals.push(decoded);
    }
  }
  const inProject = (diagnostic: Diagnostic): Diagnostic => ({
    ...diagnostic,
    file: `${EVALS_FOLDER}/${diagnostic.file}`,
  });
  const diagnostics = sortDiagnostics([...parsed.diagnostics, ...sink.diagnostics].map(inProject));
  const sources = new Map(
    parsed.files.map((file) => [`${EVALS_FOLDER}/${file.path}`, file.text] as const),
  );
  // An eval whose file has an error is not run: its other evals may depend on what failed.
  const broken = new Set(
    diagnostics.filter((diagnostic) => diagnostic.severity === 'error').map((item) => item.file),
  );
  return {
    evals: evals.filter((definition) => !broken.has(definition.file)),
    diagnostics,
    sources,
    found: true,
  };
}

const origin = { line: 1, column: 1, offset: 0 };

/** A variable the project does not declare: it has no value an eval could read. */
function undeclared(name: string, span: Span): VariableConfig {
  return { name, secret: true, declared: false, source: 'unset', span };
}
