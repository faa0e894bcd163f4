/** Builds the ModelClient for a resolved model: the adapter of its wire protocol, wrapped in the retry policy. */
import { createAnthropicClient } from './anthropic/index.ts';
import type { ClientOptions } from './client-options.ts';
import { createGeminiClient } from './gemini/index.ts';
import { createOpenAIResponsesClient } from './openai-responses/index.ts';
import { withRetry, type RetryNotice } from './retry.ts';
import type { ModelClient, ModelRequest, ResolvedModel } from './model-types.ts';

/** The adapter for a provider, without retries. */
export function createAdapter(model: ResolvedModel, options: ClientOptions = {}): ModelClient {
  switch (model.provider) {
    case 'openai':
    case 'ollama':
      return createOpenAIResponsesClient(model, options);
    case 'anthropic':
      return createAnthropicClient(model, options);
    case 'gemini':
      return createGeminiClient(model, options);
  }
}

/** A ready-to-use client: the provider's adapter with sortie's one retry policy around it. */
export function createModelClient(model: ResolvedModel, options: ClientOptions = {}): ModelClient {
  const retry =
    options.onRetry !== undefined
      ? { ...options.retry, onRetry: options.onRetry }
      : { ...options.retry };
  return withRetry(createAdapter(model, options), retry);
}

/**
 * Makes the client for one model; `onRetry` reports the retry policy's waits with the request
 * that waits (a wrapping factory must pass both on, or the retry goes unreported).
 */
export type ModelClientFactory = (
  model: ResolvedModel,
  hooks: { onRetry: (notice: RetryNotice, request: ModelRequest) => void },
) => ModelClient;
