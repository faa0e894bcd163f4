import { describe, expect, it } from 'vitest';
import { knownModels } from '../../src/config/known-models.ts';
import { builtinCatalog } from '../../src/config/model-catalog.ts';
import type { Pricing } from '../../src/models/model-types.ts';

const none = new Map<string, string>();
const noPricing = new Map<string, Pricing>();

describe('knownModels', () => {
  it('offers every built-in key with registry pricing and flags', () => {
    const models = knownModels('openai', none, noPricing, builtinCatalog);
    expect(models.get('gpt_5_mini')).toEqual({
      key: 'gpt_5_mini',
      apiName: 'gpt-5-mini',
      reasoningCapable: true,
      pricing: { input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: 0.75 },
    });
    expect(models.size).toBe(21);
  });

  it('prefers the block pricing over the registry', () => {
    const pricing = new Map([['gpt_4o', { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }]]);
    const models = knownModels('openai', none, pricing, builtinCatalog);
    expect(models.get('gpt_4o')?.pricing).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });

  it('lists aliases first; an alias overrides a built-in key and is sent verbatim', () => {
    const aliases = new Map([
      ['fast', 'gpt-4o-mini'],
      ['gpt_4o', 'gpt-4o-2024-08-06'],
    ]);
    const models = knownModels('openai', aliases, noPricing, builtinCatalog);
    expect([...models.keys()].slice(0, 3)).toEqual(['fast', 'gpt_4o', 'gpt_5_5']);
    expect(models.get('gpt_4o')).toEqual({
      key: 'gpt_4o',
      apiName: 'gpt-4o-2024-08-06',
      reasoningCapable: false,
    });
    expect(models.get('fast')?.pricing).toEqual({
      input: 0.15,
      output: 0.6,
      cacheRead: 0.075,
      cacheWrite: 0.15,
    });
  });

  it('prices a hosted alias of an unknown name only through a pricing block', () => {
    const aliases = new Map([['custom', 'ft:gpt-4o:acme']]);
    const pricing = new Map([
      ['custom', { input: 3.75, output: 15, cacheRead: 1.875, cacheWrite: 0 }],
    ]);
    expect(knownModels('openai', aliases, noPricing, builtinCatalog).get('custom')?.pricing).toBe(
      undefined,
    );
    expect(knownModels('openai', aliases, pricing, builtinCatalog).get('custom')?.pricing).toEqual({
      input: 3.75,
      output: 15,
      cacheRead: 1.875,
      cacheWrite: 0,
    });
  });

  it('gives the local provider only its aliases, priced at 0 and never reasoning-capable', () => {
    const aliases = new Map([
      ['llama', 'llama3.2:3b'],
      ['gpt_4o', 'gpt-4o'],
    ]);
    const models = knownModels('ollama', aliases, noPricing, builtinCatalog);
    expect([...models.keys()]).toEqual(['llama', 'gpt_4o']);
    expect(models.get('llama')).toEqual({
      key: 'llama',
      apiName: 'llama3.2:3b',
      reasoningCapable: false,
      pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(models.get('gpt_4o')?.reasoningCapable).toBe(false);
  });
});
