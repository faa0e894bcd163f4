import type { Pricing, ProviderName } from '../models/model-types.ts';
import type { CatalogModel, ModelCatalog } from './model-catalog.ts';

/** One model key of a model block, with what calling and pricing it needs. */
export interface KnownModel {
  key: string;
  apiName: string;
  reasoningCapable: boolean;
  /** Undefined when no price is known (an alias of a name the registry does not list). */
  pricing?: Pricing;
}

const FREE: Pricing = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

/**
 * Every key of a model block: aliases first (an alias of a hosted provider that names a
 * registry model inherits its flags and prices; local aliases are never reasoning-capable
 * and cost 0), then the provider's built-in models. Custom `pricing` wins over the registry.
 */
export function knownModels(
  provider: ProviderName,
  aliases: ReadonlyMap<string, string>,
  pricing: ReadonlyMap<string, Pricing>,
  catalog: ModelCatalog,
): Map<string, KnownModel> {
  const models = new Map<string, KnownModel>();
  const builtins =
    provider === 'ollama'
      ? []
      : catalog.keys(provider).flatMap((key) => catalog.find(provider, key) ?? []);
  const fromCatalog = (key: string, builtin: CatalogModel): KnownModel => ({
    key,
    apiName: builtin.apiName,
    reasoningCapable: builtin.reasoning,
    pricing: builtin.pricing,
  });
  for (const [key, apiName] of aliases) {
    const builtin = builtins.find((candidate) => candidate.apiName === apiName);
    const local: KnownModel = { key, apiName, reasoningCapable: false };
    if (provider === 'ollama') local.pricing = FREE;
    models.set(key, builtin === undefined ? local : fromCatalog(key, builtin));
  }
  for (const builtin of builtins) {
    if (!models.has(builtin.key)) models.set(builtin.key, fromCatalog(builtin.key, builtin));
  }
  for (const [key, custom] of pricing) {
    const model = models.get(key);
    if (model !== undefined) model.pricing = custom;
  }
  return models;
}
