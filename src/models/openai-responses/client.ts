/**
 * The OpenAI Responses API adapter (providers `openai` and `ollama`): a thin shell around the
 * `openai` SDK; all conversion lives in to-wire.ts, stream.ts and from-wire.ts.
 */
import OpenAI from 'openai';
import { ProviderError } from '../../base/errors.ts';
import { sdkFetch } from '../../base/http/index.ts';
import type { ClientOptions } from '../client-options.ts';
import { createStreamDeadlines, resolveTimeouts } from '../timeouts.ts';
import type { ModelClient, ModelRequest, ModelResponse, ResolvedModel } from '../model-types.ts';
import { toProviderError } from './errors.ts';
import { fromResponse } from './from-wire.ts';
import { collectResponse } from './stream.ts';
import { toResponsesRequest } from './to-wire.ts';
import { sharedSdk } from '../sdk-clients.ts';

/** What the SDK reads from the environment when it is built. */
const SDK_ENVIRONMENT = [
  'OPENAI_BASE_URL',
  'OPENAI_ORG_ID',
  'OPENAI_PROJECT_ID',
  'OPENAI_CUSTOM_HEADERS',
  'OPENAI_LOG',
  'OPENAI_WEBHOOK_SECRET',
];

/** Local servers ignore the key, but the SDK insists on one. */
const LOCAL_PLACEHOLDER_KEY = 'sortie-local';

function createSdk(model: ResolvedModel, options: ClientOptions): OpenAI {
  const apiKey = model.apiKey ?? (model.provider === 'ollama' ? LOCAL_PLACEHOLDER_KEY : undefined);
  // Our own deadlines abort first; the SDK's timer only backs them up.
  const timeout = resolveTimeouts(options.timeouts).totalMs + 1000;
  const identity = {
    provider: model.provider,
    baseUrl: model.baseUrl,
    apiKey,
    timeoutMs: timeout,
    environment: SDK_ENVIRONMENT,
  };
  try {
    return sharedSdk(
      identity,
      () => new OpenAI({ apiKey, baseURL: model.baseUrl, maxRetries: 0, timeout, fetch: sdkFetch }),
    );
  } catch (error) {
    throw new ProviderError(
      `${model.provider}: no API key configured`,
      model.provider,
      undefined,
      false,
      undefined,
      { cause: error },
    );
  }
}

/** A ModelClient speaking the OpenAI Responses API; retries are added by `withRetry`. */
export function createOpenAIResponsesClient(
  model: ResolvedModel,
  options: ClientOptions = {},
): ModelClient {
  // Built on first use so a missing key fails the turn (a ProviderError), not client creation.
  let sdk: OpenAI | undefined;

  async function generate(request: ModelRequest): Promise<ModelResponse> {
    const deadlines = createStreamDeadlines({
      provider: model.provider,
      signal: request.signal,
      timeouts: options.timeouts,
    });
    // An error thrown by the caller's onDelta is the caller's: it surfaces untranslated.
    let listenerFailure: { error: unknown } | undefined;
    const onDelta =
      request.onDelta === undefined
        ? undefined
        : (text: string): void => {
            try {
              request.onDelta?.(text);
            } catch (error) {
              listenerFailure = { error };
              throw error;
            }
          };
    try {
      sdk ??= createSdk(model, options);
      const headers = request.actor !== undefined ? { 'x-sortie-actor': request.actor } : undefined;
      const events = await sdk.responses.create(toResponsesRequest(model, request), {
        signal: deadlines.signal,
        headers,
      });
      deadlines.touch();
      const response = await collectResponse(events, {
        provider: model.provider,
        apiKey: model.apiKey,
        onDelta,
        onEvent: () => deadlines.touch(),
      });
      return fromResponse(response, model.provider, model.apiName);
    } catch (error) {
      if (listenerFailure !== undefined && error === listenerFailure.error) throw error;
      throw toProviderError(deadlines.translate(error), model, request.signal);
    } finally {
      deadlines.dispose();
    }
  }

  return { model, generate };
}
