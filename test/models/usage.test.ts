import { describe, expect, it } from 'vitest';
import {
  addUsage,
  emptyUsage,
  normalizeAnthropicUsage,
  normalizeGeminiUsage,
  normalizeOpenAIUsage,
  totalTokens,
} from '../../src/models/usage.ts';

describe('usage normalisation', () => {
  it('OpenAI: cached tokens leave input; reasoning stays inside output', () => {
    expect(
      normalizeOpenAIUsage({
        input_tokens: 1200,
        input_tokens_details: { cached_tokens: 1000 },
        output_tokens: 300,
        output_tokens_details: { reasoning_tokens: 120 },
      }),
    ).toEqual({ input: 200, output: 300, cacheRead: 1000, cacheWrite: 0, reasoning: 120 });
    expect(normalizeOpenAIUsage(undefined)).toEqual(emptyUsage());
    expect(
      normalizeOpenAIUsage({ input_tokens: 5, input_tokens_details: null, output_tokens: null }),
    ).toEqual({
      input: 5,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
    });
  });

  it('Anthropic: the four classes are taken as reported', () => {
    expect(
      normalizeAnthropicUsage({
        input_tokens: 10,
        output_tokens: 20,
        cache_read_input_tokens: 30,
        cache_creation_input_tokens: 40,
      }),
    ).toEqual({ input: 10, output: 20, cacheRead: 30, cacheWrite: 40, reasoning: 0 });
  });

  it('Gemini: cached content leaves the prompt; thoughts join the output', () => {
    expect(
      normalizeGeminiUsage({
        promptTokenCount: 500,
        cachedContentTokenCount: 100,
        candidatesTokenCount: 50,
        thoughtsTokenCount: 25,
      }),
    ).toEqual({ input: 400, output: 75, cacheRead: 100, cacheWrite: 0, reasoning: 25 });
    expect(normalizeGeminiUsage(undefined)).toEqual(emptyUsage());
  });

  it('Gemini: tool-use prompt tokens (search, code results fed back) count as input', () => {
    expect(
      normalizeGeminiUsage({
        promptTokenCount: 17,
        candidatesTokenCount: 37,
        toolUsePromptTokenCount: 308,
        thoughtsTokenCount: 333,
      }),
    ).toEqual({ input: 325, output: 370, cacheRead: 0, cacheWrite: 0, reasoning: 333 });
  });

  it('adds and totals usages', () => {
    const sum = addUsage(
      { input: 1, output: 2, cacheRead: 3, cacheWrite: 4, reasoning: 1 },
      { input: 10, output: 20, cacheRead: 30, cacheWrite: 40, reasoning: 5 },
    );
    expect(sum).toEqual({ input: 11, output: 22, cacheRead: 33, cacheWrite: 44, reasoning: 6 });
    expect(totalTokens(sum)).toBe(110);
  });

  it('marks a sum estimated when either reasoning count was', () => {
    const reported = { input: 0, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 4 };
    const estimated = { ...reported, reasoningEstimated: true as const };
    expect(addUsage(reported, estimated).reasoningEstimated).toBe(true);
    expect(addUsage(estimated, reported).reasoningEstimated).toBe(true);
    expect('reasoningEstimated' in addUsage(reported, reported)).toBe(false);
  });
});
