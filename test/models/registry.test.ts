import { describe, expect, it } from 'vitest';
import { builtinModelKeys, findBuiltinModel, LAST_VERIFIED } from '../../src/models/registry.ts';

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
