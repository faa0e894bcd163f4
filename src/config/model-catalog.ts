import type { Pricing, ProviderName } from '../models/model-types.ts';
import { builtinModelKeys, findBuiltinModel } from '../models/registry.ts';

/** A model of the built-in registry, as the config layer needs it. */
export interface CatalogModel {
  key: string;
  apiName: string;
  reasoning: boolean;
  pricing: Pricing;
}

/** The built-in model registry, per provider (a parameter so tests can give a small one). */
export interface ModelCatalog {
  find(provider: ProviderName, key: string): CatalogModel | undefined;
  keys(provider: ProviderName): string[];
}

export const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'gemini', 'ollama'];

/** Providers reached over the internet: they need an `api_key`. */
export const HOSTED_PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'gemini'];

/** The built-in registry of `src/models/registry.ts` as a catalog. */
export const builtinCatalog: ModelCatalog = {
  find: (provider, key) => findBuiltinModel(provider, key),
  keys: (provider) => builtinModelKeys(provider),
};
