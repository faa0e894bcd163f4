import type { Expr } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { modelKeys } from './decode-models.ts';
import type { ModelCatalog } from './model-catalog.ts';
import { referenceOf, reportUnsupportedNamespace } from './references.ts';
import { didYouMean } from '../base/suggest.ts';
import type { ModelBlockConfig, ModelRef } from './config-types.ts';

/** The model blocks of a project: labels seen (even when a block failed to decode) and decoded blocks. */
export interface ModelTable {
  labels: ReadonlySet<string>;
  blocks: ReadonlyMap<string, ModelBlockConfig>;
  catalog: ModelCatalog;
}

/**
 * Resolves `models.CONFIG.KEY` (also the strings `"CONFIG.KEY"`, `"models.CONFIG.KEY"`, and a
 * bare `"KEY"` that must be unambiguous across model blocks).
 */
export function resolveModelRef(
  expr: Expr,
  table: ModelTable,
  context: DecodeContext,
): ModelRef | undefined {
  const reference = referenceOf(expr);
  if (reference === undefined) {
    return errorAt(context, expr.span, 'model expects a reference like models.CONFIG.KEY');
  }
  if (reportUnsupportedNamespace(reference, context)) return undefined;
  let segments = reference.segments;
  if (segments[0] === 'models' && (reference.form === 'traversal' || segments.length === 3))
    segments = segments.slice(1);
  else if (reference.form === 'traversal') {
    return errorAt(
      context,
      reference.span,
      `model expects a reference like models.CONFIG.KEY, got ${segments.join('.')}`,
    );
  }
  if (segments.length === 1 && reference.form === 'string')
    return resolveBareKey(segments[0] ?? '', expr, table, context);
  const [config, key] = segments;
  if (segments.length !== 2 || config === undefined || key === undefined) {
    return errorAt(context, reference.span, 'model expects a reference like models.CONFIG.KEY');
  }
  if (!table.labels.has(config)) {
    const suggestion = didYouMean(config, table.labels);
    return errorAt(context, reference.span, `unknown model block "${config}"${suggestion}`);
  }
  const block = table.blocks.get(config);
  if (block === undefined) return undefined; // the block itself is broken and already reported
  const keys = modelKeys(block, table.catalog);
  if (!keys.includes(key)) {
    const suggestion = didYouMean(key, keys);
    const hint =
      block.provider === 'ollama' ? `add it to the aliases of model "${config}"` : undefined;
    return errorAt(
      context,
      reference.span,
      `unknown model "${key}" in model block "${config}"${suggestion}`,
      hint,
    );
  }
  return { config, key };
}

function resolveBareKey(
  key: string,
  expr: Expr,
  table: ModelTable,
  context: DecodeContext,
): ModelRef | undefined {
  const matches: ModelRef[] = [];
  const allKeys = new Set<string>();
  for (const block of table.blocks.values()) {
    const keys = modelKeys(block, table.catalog);
    keys.forEach((candidate) => allKeys.add(candidate));
    if (keys.includes(key)) matches.push({ config: block.name, key });
  }
  const [only] = matches;
  if (matches.length === 1 && only !== undefined) return only;
  if (matches.length > 1) {
    const candidates = matches.map((match) => `models.${match.config}.${match.key}`).join(', ');
    return errorAt(
      context,
      expr.span,
      `model "${key}" is ambiguous: ${candidates}`,
      'write the full reference',
    );
  }
  return errorAt(context, expr.span, `unknown model "${key}"${didYouMean(key, allKeys)}`);
}
