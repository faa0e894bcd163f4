import type { Block } from './ast.ts';
import type { Pricing, ProviderName } from '../models/model-types.ts';
import { blockName, checkBody, checkName, headerSpan } from './body.ts';
import { errorAt, warningAt, within, type DecodeContext } from './context.ts';
import { HOSTED_PROVIDERS, PROVIDERS, type ModelCatalog } from './model-catalog.ts';
import { didYouMean } from '../base/suggest.ts';
import type { ModelBlockConfig } from './config-types.ts';
import { readDeferredString } from './deferred-strings.ts';
import { literalText, readBool, readNumber, readStringMap } from './values.ts';
import { knownModels } from './known-models.ts';

/** Decodes a `model "CONFIG"` block (provider, credentials, aliases, pricing). */
export function decodeModel(
  block: Block,
  context: DecodeContext,
  catalog: ModelCatalog,
): ModelBlockConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `model "${name}"`);
  const header = headerSpan(block);
  const body = checkBody(
    block.body,
    {
      attributes: ['provider', 'api_key', 'base_url', 'aliases', 'prompt_caching'],
      required: ['provider'],
      blocks: ['pricing'],
      // Older reference-runtime configs listed usable keys; every key is usable in sortie.
      ignoredAttributes: ['allowed_models'],
      lenient: { what: 'models' },
    },
    inner,
    header,
  );
  const providerAttribute = body.attributes.get('provider');
  if (providerAttribute === undefined) return undefined;
  const providerText = literalText(providerAttribute.value);
  if (providerText === undefined || !(PROVIDERS as readonly string[]).includes(providerText)) {
    const suggestion = providerText === undefined ? '' : didYouMean(providerText, PROVIDERS);
    return errorAt(
      inner,
      providerAttribute.value.span,
      `provider must be one of ${PROVIDERS.join(', ')}${suggestion}`,
    );
  }
  const provider = providerText as ProviderName;
  const model: ModelBlockConfig = {
    name,
    provider,
    aliases: new Map(),
    promptCaching: true,
    pricing: new Map(),
    models: new Map(),
    span: block.labelSpans[0] ?? block.span,
  };
  const apiKey = body.attributes.get('api_key');
  if (apiKey !== undefined) {
    const value = readDeferredString(apiKey.value, 'api_key', inner);
    if (value !== undefined) model.apiKey = value;
  } else if (HOSTED_PROVIDERS.includes(provider)) {
    errorAt(
      inner,
      header,
      `missing required attribute "api_key": provider "${provider}" needs an API key`,
    );
  }
  const baseUrl = body.attributes.get('base_url');
  if (baseUrl !== undefined) {
    const value = readDeferredString(baseUrl.value, 'base_url', inner);
    if (value !== undefined) model.baseUrl = value;
  } else if (provider === 'ollama') {
    errorAt(
      inner,
      header,
      'missing required attribute "base_url": provider "ollama" needs the URL of your server, e.g. "http://localhost:11434/v1"',
    );
  }
  const aliases = body.attributes.get('aliases');
  if (aliases !== undefined) {
    model.aliases = readStringMap(aliases, inner) ?? new Map();
    if (aliases.value.kind === 'object') {
      for (const entry of aliases.value.entries) checkName(entry.key, entry.keySpan, inner);
      if (provider === 'ollama' && model.aliases.size === 0) {
        const message = 'aliases must name at least one model for provider "ollama"';
        errorAt(inner, aliases.value.span, message);
      }
    }
  } else if (provider === 'ollama') {
    errorAt(
      inner,
      header,
      'missing required attribute "aliases": provider "ollama" has no built-in models; map keys to the names your server knows',
    );
  }
  model.promptCaching = readBool(body.attributes.get('prompt_caching'), inner) ?? true;
  const keys = modelKeys(model, catalog);
  const pricedKeys = new Set<string>();
  for (const pricingBlock of body.blocks) {
    const decoded = decodePricing(pricingBlock, inner, keys);
    if (decoded === undefined) continue;
    const labelSpan = pricingBlock.labelSpans[0] ?? pricingBlock.typeSpan;
    if (pricedKeys.has(decoded.key)) {
      errorAt(inner, labelSpan, `duplicate pricing "${decoded.key}"`);
      continue;
    }
    pricedKeys.add(decoded.key);
    if (provider === 'ollama') {
      // The seed: a local model's dollar cost is 0; its tokens are still counted.
      warningAt(
        inner,
        labelSpan,
        `pricing "${decoded.key}" is ignored: a local model's dollar cost is always $0 (its tokens are still counted)`,
        'remove this pricing block',
      );
    } else {
      model.pricing.set(decoded.key, decoded.pricing);
    }
  }
  model.models = knownModels(provider, model.aliases, model.pricing, catalog);
  return model;
}

/** Every key a model block exposes: its aliases, then its provider's built-in keys. */
export function modelKeys(model: ModelBlockConfig, catalog: ModelCatalog): string[] {
  const keys = [...model.aliases.keys()];
  if (model.provider === 'ollama') return keys;
  return [...keys, ...catalog.keys(model.provider).filter((key) => !model.aliases.has(key))];
}

function decodePricing(
  block: Block,
  context: DecodeContext,
  keys: readonly string[],
): { key: string; pricing: Pricing } | undefined {
  const key = blockName(block, context);
  if (key === undefined) return undefined;
  const inner = within(context, `pricing "${key}"`);
  const body = checkBody(
    block.body,
    { attributes: ['input', 'output', 'cache_read', 'cache_write'], required: ['input', 'output'] },
    inner,
    headerSpan(block),
  );
  const valid = keys.includes(key);
  if (!valid) {
    errorAt(
      inner,
      block.labelSpans[0] ?? block.typeSpan,
      `pricing "${key}" does not name a model key of this block${didYouMean(key, keys)}`,
      `valid keys: ${keys.join(', ')}`,
    );
  }
  const price = (name: string): number | undefined =>
    readNumber(body.attributes.get(name), inner, { min: 0 });
  const input = price('input');
  const output = price('output');
  if (!valid || input === undefined || output === undefined) return undefined;
  return {
    key,
    pricing: {
      input,
      output,
      cacheRead: price('cache_read') ?? 0,
      cacheWrite: price('cache_write') ?? 0,
    },
  };
}
