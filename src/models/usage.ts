/**
 * Token usage in sortie's four disjoint classes (models.md, Usage and cost), plus the
 * per-provider normalisation from each wire format's counters.
 */
import type { Usage } from './model-types.ts';

/** Usage with every class at zero. */
export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
}

/** The class-wise sum of two usages; estimated when either reasoning count was. */
export function addUsage(left: Usage, right: Usage): Usage {
  const sum: Usage = {
    input: left.input + right.input,
    output: left.output + right.output,
    cacheRead: left.cacheRead + right.cacheRead,
    cacheWrite: left.cacheWrite + right.cacheWrite,
    reasoning: left.reasoning + right.reasoning,
  };
  if (left.reasoningEstimated === true || right.reasoningEstimated === true)
    sum.reasoningEstimated = true;
  return sum;
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
  /** Sent by newer models only; older ones leave thinking inside `output_tokens` unitemised. */
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** What a reply showed, for estimating its thinking tokens when the API does not itemise them. */
export interface ThinkingShown {
  /** Characters of thinking text (summarised thinking shows less than was billed). */
  thinkingChars: number;
  /** Characters of everything else the model wrote: answer text, tool names and arguments. */
  answerChars: number;
}

/** Characters per token for estimates: the usual rule of thumb for English text and code. */
const CHARS_PER_TOKEN = 4;

/**
 * Thinking tokens of a reply whose usage does not itemise them: the output left after the
 * answer's estimated share, but no less than the thinking text shown and no more than output.
 */
export function estimateThinkingTokens(output: number, shown: ThinkingShown): number {
  const fromText = Math.ceil(shown.thinkingChars / CHARS_PER_TOKEN);
  const remainder = output - Math.ceil(shown.answerChars / CHARS_PER_TOKEN);
  return Math.min(output, Math.max(fromText, remainder));
}

/**
 * Anthropic: the four classes are already disjoint; thinking is inside `output_tokens`.
 * `reasoning` is `thinking_tokens` when reported; otherwise, for a reply that thought
 * (`thinking` given), an estimate marked `reasoningEstimated`.
 */
export function normalizeAnthropicUsage(
  usage: AnthropicWireUsage | null | undefined,
  thinking?: ThinkingShown,
): Usage {
  const normalized: Usage = {
    input: count(usage?.input_tokens),
    output: count(usage?.output_tokens),
    cacheRead: count(usage?.cache_read_input_tokens),
    cacheWrite: count(usage?.cache_creation_input_tokens),
    reasoning: 0,
  };
  const reported = usage?.output_tokens_details?.thinking_tokens;
  if (typeof reported === 'number') {
    normalized.reasoning = count(reported);
  } else if (thinking !== undefined) {
    normalized.reasoning = estimateThinkingTokens(normalized.output, thinking);
    normalized.reasoningEstimated = true;
  }
  return normalized;
}

/** Gemini `usageMetadata`. */
export interface GeminiWireUsage {
  promptTokenCount?: number | null;
  candidatesTokenCount?: number | null;
  cachedContentTokenCount?: number | null;
  thoughtsTokenCount?: number | null;
  /** Tool results (search, code execution) fed back to the model: billed as input. */
  toolUsePromptTokenCount?: number | null;
}

/**
 * Gemini: cached tokens are inside the prompt count; thoughts are counted apart from
 * candidates; tool-use prompt tokens are counted apart from the prompt but billed as input.
 */
export function normalizeGeminiUsage(usage: GeminiWireUsage | null | undefined): Usage {
  const cached = count(usage?.cachedContentTokenCount);
  const thoughts = count(usage?.thoughtsTokenCount);
  return {
    input:
      Math.max(0, count(usage?.promptTokenCount) - cached) + count(usage?.toolUsePromptTokenCount),
    output: count(usage?.candidatesTokenCount) + thoughts,
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: thoughts,
  };
}
