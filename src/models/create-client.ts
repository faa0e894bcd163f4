/**
 * Builds the ModelClient for a resolved model: the adapter of its wire protocol, wrapped in the
 * retry policy. Each adapter (and its provider SDK) is loaded on its first request, so a run
 * loads only the SDKs of the protocols it talks: three SDKs at start-up cost a run (and a
 * resume) a good part of its time to the first request.
 */
import type { ClientOptions } from './client-options.ts';
import { withRetry, type RetryNotice } from './retry.ts';
import type { ModelClient, ModelRequest, ProviderName, ResolvedModel } from './model-types.ts';

type AdapterFactory = (model: ResolvedModel, options: ClientOptions) => ModelClient;

function loadAdapter(provider: ProviderName): Promise<AdapterFactory> {
  switch (provider) {
    case 'openai':
    case 'ollama':
      return import('./openai-responses/client.ts').then(
        (module) => module.createOpenAIResponsesClient,
      );
    case 'anthropic':
      return import('./anthropic/client.ts').then((module) => module.createAnthropicClient);
    case 'gemini':
      return import('./gemini/client.ts').then((module) => module.createGeminiClient);
  }
}

/** The adapter for a provider, without retries; its module loads with the first request. */
export function createAdapter(model: ResolvedModel, options: ClientOptions = {}): ModelClient {
  let adapter: Promise<ModelClient> | undefined;
  return {
    model,
    generate(request) {
      adapter ??= loadAdapter(model.provider).then((create) => create(model, options));
      return adapter.then((client) => client.generate(request));
    },
  };
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
