/**
 * Token usage in sortie's four disjoint classes (models.md, Usage and cost), plus the
 * per-provider normalisation from each wire format's counters.
 */
import type { Usage } from './types.ts';

/** Usage with every class at zero. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** The class-wise sum of two usages. */
export function addUsage(left: Usage, right: Usage): Usage {
  return {
    input: left.input + right.input,
    output: left.output + right.output,
    cacheRead: left.cacheRead + right.cacheRead,
    cacheWrite: left.cacheWrite + right.cacheWrite,
    reasoning: left.reasoning + right.reasoning,
  };
}

/** Every token billed: the four classes (reasoning is inside output). */
export function totalTokens(usage: Usage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

function count(value: number | null | undefined): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** OpenAI Responses (and local servers) wire usage. */
export interface OpenAIWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  input_tokens_details?: { cached_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** OpenAI: cached tokens are inside `input_tokens`; reasoning is inside `output_tokens`. */
export function normalizeOpenAIUsage(usage: OpenAIWireUsage | null | undefined): Usage {
  const cached = count(usage?.input_tokens_details?.cached_tokens);
  return {
    input: Math.max(0, count(usage?.input_tokens) - cached),
    output: count(usage?.output_tokens),
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: count(usage?.output_tokens_details?.reasoning_tokens),
  };
}

/** Anthropic Messages wire usage. */
export interface AnthropicWireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

/** Anthropic: the four classes are already disjoint; thinking is inside `output_tokens`. */
export function normalizeAnthropicUsage(
  usage: AnthropicWireUsage | null | undefined,
  reasoning = 0,
): Usage {
  return {
    input: count(usage?.input_tokens),
    output: count(usage?.output_tokens),
    cacheRead: count(usage?.cache_read_input_tokens),
    cacheWrite: count(usage?.cache_creation_input_tokens),
    reasoning: count(reasoning),
  };
}

/** Gemini `usageMetadata`. */
export interface GeminiWireUsage {
  promptTokenCount?: number | null;
  candidatesTokenCount?: number | null;
  cachedContentTokenCount?: number | null;
  thoughtsTokenCount?: number | null;
}

/** Gemini: cached tokens are inside the prompt count; thoughts are counted apart from candidates. */
export function normalizeGeminiUsage(usage: GeminiWireUsage | null | undefined): Usage {
  const cached = count(usage?.cachedContentTokenCount);
  const thoughts = count(usage?.thoughtsTokenCount);
  return {
    input: Math.max(0, count(usage?.promptTokenCount) - cached),
    output: count(usage?.candidatesTokenCount) + thoughts,
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: thoughts,
  };
}
