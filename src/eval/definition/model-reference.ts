/** A model reference of an eval (`models.CONFIG.KEY`), resolved against the project's models. */
import type { Expr } from '../../config/ast.ts';
import type { DecodeContext } from '../../config/context.ts';
import type { Config, ModelRef } from '../../config/config-types.ts';
import { builtinCatalog } from '../../config/model-catalog.ts';
import { resolveModelRef } from '../../config/model-refs.ts';

/** Resolves a model reference; undefined with an error reported when the project has none such. */
export function readModel(
  expr: Expr,
  scope: { config: Config },
  context: DecodeContext,
): ModelRef | undefined {
  const { models } = scope.config;
  const table = { labels: new Set(models.keys()), blocks: models, catalog: builtinCatalog };
  return resolveModelRef(expr, table, context);
}
