/**
 * The Gemini API adapter (not Vertex): a thin layer over `@google/genai` that streams every
 * call, applies the three deadlines and turns failures into ProviderErrors. The SDK retries
 * only when `httpOptions.retryOptions` is set, which sortie never does, so `createModelClient`
 * owns the one retry policy.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, GoogleGenAI } from '@google/genai';
import { sdkFetch } from '../../base/http/index.ts';
import type { ClientOptions } from '../client-options.ts';
import { classifyNetworkError } from '../http-retry.ts';
import { TruncatedStreamError } from '../provider-errors.ts';
import { createStreamDeadlines } from '../timeouts.ts';
import type { ModelClient, ModelRequest, ModelResponse, ResolvedModel } from '../model-types.ts';
import { toGeminiProviderError } from './errors.ts';
import { GeminiStreamAccumulator } from './stream-accumulator.ts';
import { toGeminiRequest } from './to-wire.ts';
import { sharedSdk } from '../sdk-clients.ts';

/** What the SDK reads from the environment when it is built. */
const SDK_ENVIRONMENT = [
  'GOOGLE_GEMINI_BASE_URL',
  'GOOGLE_VERTEX_BASE_URL',
  'GOOGLE_CLOUD_PROJECT',
  'GOOGLE_CLOUD_LOCATION',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_ENTERPRISE',
];

const PROVIDER = 'gemini';

function createSdk(model: ResolvedModel): GoogleGenAI {
  const identity = {
    provider: PROVIDER,
    baseUrl: model.baseUrl,
    apiKey: model.apiKey,
    environment: SDK_ENVIRONMENT,
  };
  return sharedSdk(
    identity,
    () =>
      new GoogleGenAI({
        vertexai: false,
        ...(model.apiKey !== undefined ? { apiKey: model.apiKey } : {}),
        ...(model.baseUrl !== undefined ? { httpOptions: { baseUrl: model.baseUrl } } : {}),
      }),
  );
}

/** True for failures of the response body itself (cut off, unparsable) rather than the API or network. */
function isBrokenStream(error: unknown): boolean {
  return !(error instanceof ApiError) && classifyNetworkError(error) === undefined;
}

/** A ModelClient for a Gemini model. */
export function createGeminiClient(model: ResolvedModel, options: ClientOptions = {}): ModelClient {
  const sdk = createSdk(model);

  async function generate(request: ModelRequest): Promise<ModelResponse> {
    const parameters = toGeminiRequest(request, model);
    const deadlines = createStreamDeadlines({
      provider: PROVIDER,
      signal: request.signal,
      timeouts: options.timeouts,
    });
    const callPrefix = `call_${randomUUID().slice(0, 8)}`;
    const accumulator = new GeminiStreamAccumulator(
      model.apiName,
      (position) => `${callPrefix}_${position}`,
    );
    // ApiError keeps no headers, so the response's are caught on the way through for Retry-After.
    let responseHeaders: Headers | undefined;
    const capturingFetch: typeof fetch = async (input, init) => {
      const response = await sdkFetch(input, init);
      responseHeaders = response.headers;
      return response;
    };
    const failure = (error: unknown, midStream: boolean): unknown => {
      const expired = deadlines.expired();
      if (expired !== undefined) return expired;
      if (request.signal?.aborted) return request.signal.reason ?? error;
      if (midStream && isBrokenStream(error)) return new TruncatedStreamError(PROVIDER);
      return toGeminiProviderError(error, model.apiKey, responseHeaders);
    };
    parameters.config = {
      ...parameters.config,
      abortSignal: deadlines.signal,
      httpOptions: {
        fetch: capturingFetch,
        ...(request.actor !== undefined ? { headers: { 'x-sortie-actor': request.actor } } : {}),
      },
    };
    try {
      const stream = await sdk.models.generateContentStream(parameters).catch((error: unknown) => {
        throw failure(error, false);
      });
      deadlines.touch();
      // Only the SDK's own calls are translated; a throwing onDelta surfaces unchanged.
      const chunks = stream[Symbol.asyncIterator]();
      for (;;) {
        const step = await chunks.next().catch((error: unknown) => {
          throw failure(error, true);
        });
        if (step.done === true) break;
        deadlines.touch();
        const delta = accumulator.push(step.value);
        if (delta !== undefined) request.onDelta?.(delta);
      }
      // An abort that ended the body quietly is still the abort (or deadline), not a truncation.
      if (deadlines.signal.aborted) throw failure(deadlines.signal.reason, false);
    } finally {
      deadlines.dispose();
    }
    if (!accumulator.complete) throw new TruncatedStreamError(PROVIDER);
    return accumulator.response();
  }

  return { model, generate };
}
