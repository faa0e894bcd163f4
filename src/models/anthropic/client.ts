/**
 * The Anthropic Messages API adapter: a thin layer over `@anthropic-ai/sdk` that streams every
 * call, applies the three deadlines and turns failures into ProviderErrors. It never retries
 * (`maxRetries: 0`); `createModelClient` wraps it in the one retry policy.
 */
import Anthropic from '@anthropic-ai/sdk';
import type { Stream } from '@anthropic-ai/sdk/core/streaming';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { sdkFetch } from '../../base/http/index.ts';
import type { ClientOptions } from '../client-options.ts';
import { TruncatedStreamError } from '../provider-errors.ts';
import { createStreamDeadlines, resolveTimeouts } from '../timeouts.ts';
import type { ModelClient, ModelRequest, ModelResponse, ResolvedModel } from '../model-types.ts';
import { toAnthropicProviderError } from './errors.ts';
import { fromAnthropicReply } from './from-wire.ts';
import { AnthropicStreamAccumulator } from './stream-accumulator.ts';
import { toAnthropicRequest } from './to-wire.ts';
import { sharedSdk } from '../sdk-clients.ts';

/** What the SDK reads from the environment when it is built. */
const SDK_ENVIRONMENT = [
  'ANTHROPIC_BASE_URL',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_LOG',
  'ANTHROPIC_CUSTOM_HEADERS',
  'ANTHROPIC_WEBHOOK_SIGNING_KEY',
];

const PROVIDER = 'anthropic';

function createSdk(model: ResolvedModel, options: ClientOptions): Anthropic {
  // The SDK's own timeout only bounds the wait for headers; ours are shorter and finer.
  const timeout = resolveTimeouts(options.timeouts).totalMs;
  const identity = {
    provider: PROVIDER,
    baseUrl: model.baseUrl,
    apiKey: model.apiKey,
    timeoutMs: timeout,
    environment: SDK_ENVIRONMENT,
  };
  return sharedSdk(
    identity,
    () =>
      new Anthropic({
        // Without a configured key the SDK falls back to ANTHROPIC_API_KEY, like the Gemini SDK does.
        ...(model.apiKey !== undefined ? { apiKey: model.apiKey } : {}),
        timeout,
        maxRetries: 0,
        logLevel: 'off',
        fetch: sdkFetch,
        ...(model.baseUrl !== undefined ? { baseURL: model.baseUrl } : {}),
      }),
  );
}

/** A ModelClient for an Anthropic model. */
export function createAnthropicClient(
  model: ResolvedModel,
  options: ClientOptions = {},
): ModelClient {
  const sdk = createSdk(model, options);

  async function generate(request: ModelRequest): Promise<ModelResponse> {
    const body = toAnthropicRequest(request, model);
    const deadlines = createStreamDeadlines({
      provider: PROVIDER,
      signal: request.signal,
      timeouts: options.timeouts,
    });
    const accumulator = new AnthropicStreamAccumulator(model.apiName);
    const failure = (error: unknown, midStream: boolean): unknown => {
      const expired = deadlines.expired();
      if (expired !== undefined) return expired;
      if (request.signal?.aborted) return request.signal.reason ?? error;
      const converted = toAnthropicProviderError(error, model.apiKey);
      // Anything else breaking the body mid-stream (a cut-off frame) is a truncated stream.
      return midStream && converted === error ? new TruncatedStreamError(PROVIDER) : converted;
    };
    const rethrow = (error: unknown): never => {
      throw failure(error, false);
    };
    try {
      const headers = request.actor !== undefined ? { 'x-sortie-actor': request.actor } : undefined;
      // `post` rather than `messages.create`: the latter prints a console warning on every call
      // for deprecated models (the registry still lists some), which would scribble over the TUI.
      const stream = await sdk
        .post<Stream<RawMessageStreamEvent>>('/v1/messages', {
          body,
          stream: true,
          signal: deadlines.signal,
          headers,
        })
        .catch(rethrow);
      deadlines.touch();
      // Only the SDK's own calls are translated; a throwing onDelta surfaces unchanged.
      const events = stream[Symbol.asyncIterator]();
      for (;;) {
        const step = await events.next().catch((error: unknown) => {
          throw failure(error, true);
        });
        if (step.done === true) break;
        deadlines.touch();
        const delta = accumulator.push(step.value);
        if (delta !== undefined && delta !== '') request.onDelta?.(delta);
      }
      // The SDK ends the iteration quietly when the signal aborts mid-stream.
      if (deadlines.signal.aborted) rethrow(deadlines.signal.reason);
    } finally {
      deadlines.dispose();
    }
    if (!accumulator.complete) throw new TruncatedStreamError(PROVIDER);
    return fromAnthropicReply(accumulator.reply());
  }

  return { model, generate };
}
