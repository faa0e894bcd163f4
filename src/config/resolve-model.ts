import { ConfigError, diagnosticAt, type Diagnostic } from '../base/errors.ts';
import type { ResolvedModel } from '../models/model-types.ts';
import type { Span } from './ast.ts';
import { missingVariableHint } from './variable-values.ts';
import type { Config, DeferredString, ModelRef } from './config-types.ts';

/**
 * Everything the runtime needs to call and price a model: provider, API name, credentials
 * (variables resolved now), prices and the reasoning flag. A credential (`api_key`, `base_url`)
 * whose variables are unset is left out rather than failing: whether a run needs it depends on
 * its clients (a cassette replay needs none), so requiring it is `requireVariables`' job, done
 * before the run starts. Throws ConfigError only for an unknown model.
 */
export function resolveModel(config: Config, ref: ModelRef): ResolvedModel {
  const block = config.models.get(ref.config);
  const known = block?.models.get(ref.key);
  if (block === undefined || known === undefined) {
    throw new ConfigError([
      {
        severity: 'error',
        message: `unknown model models.${ref.config}.${ref.key}`,
        file: '',
        line: 0,
        column: 0,
        endLine: 0,
        endColumn: 0,
        path: [],
      },
    ]);
  }
  const path = [`model "${block.name}"`];
  const model: ResolvedModel = {
    provider: block.provider,
    config: block.name,
    key: ref.key,
    apiName: known.apiName,
    promptCaching: block.promptCaching,
    reasoningCapable: known.reasoningCapable,
  };
  const apiKey = block.apiKey && resolveIfSet(config, block.apiKey, path);
  if (apiKey !== undefined) model.apiKey = apiKey;
  const baseUrl = block.baseUrl && resolveIfSet(config, block.baseUrl, path);
  if (baseUrl !== undefined) model.baseUrl = baseUrl;
  if (known.pricing) model.pricing = known.pricing;
  return model;
}

/** The text of a deferred string; throws ConfigError for each unset variable in it. */
export function resolveDeferredString(
  config: Config,
  deferred: DeferredString,
  path: string[],
): string {
  const missing = missingInDeferred(config, deferred, path);
  if (missing.length > 0) throw new ConfigError(missing);
  return deferred.segments
    .map((segment) =>
      'text' in segment ? segment.text : String(config.variables.get(segment.variable)?.value),
    )
    .join('');
}

/** The text of a deferred string, or undefined when one of its variables is unset. */
export function resolveIfSet(
  config: Config,
  deferred: DeferredString,
  path: string[],
): string | undefined {
  if (missingInDeferred(config, deferred, path).length > 0) return undefined;
  return resolveDeferredString(config, deferred, path);
}

/** A diagnostic for each unset variable a deferred string uses. */
export function missingInDeferred(
  config: Config,
  deferred: DeferredString,
  path: string[],
): Diagnostic[] {
  return deferred.segments.flatMap((segment) =>
    'variable' in segment && config.variables.get(segment.variable)?.value === undefined
      ? [unsetVariable(segment.variable, segment.span, path)]
      : [],
  );
}

/** The diagnostic for a variable that has no value where it is needed. */
export function unsetVariable(name: string, span: Span, path: string[]): Diagnostic {
  const hint = missingVariableHint(name);
  return diagnosticAt(span, `variable "${name}" has no value`, path, { hint });
}
