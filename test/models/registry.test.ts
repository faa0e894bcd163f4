import { describe, expect, it } from 'vitest';
import {
  availableModelKeys,
  builtinModelKeys,
  findBuiltinModel,
  LAST_VERIFIED,
  reasoningWarning,
  resolveModelKey,
  type ModelBlockSettings,
} from '../../src/models/registry.ts';

const openaiBlock: ModelBlockSettings = {
  label: 'openai',
  provider: 'openai',
  aliases: {},
  pricing: {},
  apiKey: 'sk-test',
  promptCaching: true,
};

describe('built-in registry', () => {
  it('holds every row of the models.md table', () => {
    expect(builtinModelKeys('openai')).toHaveLength(21);
    expect(builtinModelKeys('gemini')).toHaveLength(9);
    expect(builtinModelKeys('anthropic')).toHaveLength(8);
    expect(builtinModelKeys('ollama')).toEqual([]);
    expect(LAST_VERIFIED).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('keeps names, flags and prices exactly', () => {
    expect(findBuiltinModel('openai', 'gpt_4o')).toEqual({
      key: 'gpt_4o',
      apiName: 'gpt-4o',
      reasoning: false,
      pricing: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 2.5 },
    });
    expect(findBuiltinModel('anthropic', 'claude_sonnet_4_5')).toEqual({
      key: 'claude_sonnet_4_5',
      apiName: 'claude-sonnet-4-5-20250929',
      reasoning: true,
      pricing: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
    });
    expect(findBuiltinModel('gemini', 'gemini_2_0_flash_lite')?.pricing).toEqual({
      input: 0.075,
      output: 0.3,
      cacheRead: 0.01875,
      cacheWrite: 0.075,
    });
    expect(findBuiltinModel('openai', 'o1')?.reasoning).toBe(false);
    expect(findBuiltinModel('openai', 'claude_opus_4')).toBeUndefined();
    expect(findBuiltinModel('ollama', 'gpt_4o')).toBeUndefined();
  });
});

describe('resolveModelKey', () => {
  it('resolves a built-in key with registry pricing', () => {
    expect(resolveModelKey(openaiBlock, 'gpt_5_mini')).toEqual({
      provider: 'openai',
      config: 'openai',
      key: 'gpt_5_mini',
      apiName: 'gpt-5-mini',
      apiKey: 'sk-test',
      promptCaching: true,
      reasoningCapable: true,
      pricing: { input: 0.75, output: 4.5, cacheRead: 0.075, cacheWrite: 0.75 },
    });
  });

  it('prefers the block pricing over the registry', () => {
    const block = {
      ...openaiBlock,
      pricing: { gpt_4o: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 } },
    };
    expect(resolveModelKey(block, 'gpt_4o')?.pricing).toEqual({
      input: 1,
      output: 2,
      cacheRead: 0,
      cacheWrite: 0,
    });
  });

  it('looks up aliases first and sends their value verbatim', () => {
    const block = { ...openaiBlock, aliases: { gpt_4o: 'gpt-4o-2024-08-06', fast: 'gpt-4o-mini' } };
    const overridden = resolveModelKey(block, 'gpt_4o');
    expect([overridden?.apiName, overridden?.pricing, overridden?.reasoningCapable]).toEqual([
      'gpt-4o-2024-08-06',
      undefined,
      false,
    ]);
    const known = resolveModelKey(block, 'fast');
    expect([known?.apiName, known?.pricing]).toEqual([
      'gpt-4o-mini',
      { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0.15 },
    ]);
  });

  it('prices a hosted alias of an unknown name only through a pricing block', () => {
    const block = {
      ...openaiBlock,
      aliases: { custom: 'ft:gpt-4o:acme' },
      pricing: { custom: { input: 3.75, output: 15, cacheRead: 1.875, cacheWrite: 0 } },
    };
    expect(resolveModelKey(block, 'custom')?.pricing).toEqual({
      input: 3.75,
      output: 15,
      cacheRead: 1.875,
      cacheWrite: 0,
    });
  });

  it('gives the local provider only its aliases, priced at 0 and never reasoning-capable', () => {
    const local: ModelBlockSettings = {
      label: 'local',
      provider: 'ollama',
      aliases: { llama: 'llama3.2:3b', gpt_4o: 'gpt-4o' },
      pricing: {},
      baseUrl: 'http://localhost:11434/v1',
      promptCaching: true,
    };
    expect(resolveModelKey(local, 'llama')).toEqual({
      provider: 'ollama',
      config: 'local',
      key: 'llama',
      apiName: 'llama3.2:3b',
      baseUrl: 'http://localhost:11434/v1',
      promptCaching: true,
      reasoningCapable: false,
      pricing: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    });
    expect(resolveModelKey(local, 'gpt_4o')?.pricing).toEqual({
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
    });
    expect(resolveModelKey(local, 'gpt_5')).toBeUndefined();
  });

  it('returns undefined for unknown keys and lists the keys a block offers', () => {
    expect(resolveModelKey(openaiBlock, 'gpt_6')).toBeUndefined();
    expect(resolveModelKey(openaiBlock, 'toString')).toBeUndefined();
    const keys = availableModelKeys({
      provider: 'openai',
      aliases: { fast: 'gpt-4o-mini', gpt_4o: 'x' },
    });
    expect(keys.slice(0, 3)).toEqual(['fast', 'gpt_4o', 'gpt_5_5']);
    expect(keys.filter((key) => key === 'gpt_4o')).toHaveLength(1);
    expect(availableModelKeys({ provider: 'ollama', aliases: { llama: 'llama3.2:3b' } })).toEqual([
      'llama',
    ]);
  });
});

describe('reasoningWarning', () => {
  it('words the warning as models.md does', () => {
    const model = resolveModelKey(openaiBlock, 'gpt_4o')!;
    expect(reasoningWarning('agent "writer"', 'high', model)).toBe(
      'warning: agent "writer": reasoning = "high" has no effect: model gpt-4o (models.openai.gpt_4o) is not reasoning-capable',
    );
  });
});
