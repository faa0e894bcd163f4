/**
 * Maps whatever the `openai` SDK throws to a ProviderError: retryable from status codes and
 * error classes, `retryAfterMs` from headers, the provider's message with the key redacted.
 */
import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { ProviderError } from '../../base/errors.ts';
import { classifyNetworkError, statusError } from '../http-retry.ts';
import { LocalServerDownError, ProviderNetworkError } from '../provider-errors.ts';
import { redactKey } from '../redact-key.ts';
import { RETRYABLE_EVENT_CODES } from './stream.ts';
import type { ResolvedModel } from '../model-types.ts';
import { reasonOf } from '../../base/reason.ts';

/** The one message a local server without `/v1/responses` gets. */
export function responsesApiMissingMessage(baseUrl: string): string {
  return `the server at ${baseUrl} does not implement the Responses API (/v1/responses); Ollama needs 0.13.3 or newer`;
}

/**
 * True when a local server answered 404/501 without a JSON error object: the route itself is
 * missing. (A JSON error, such as Ollama's "model not found", is the server speaking the API.)
 */
function isMissingRoute(model: ResolvedModel, error: APIError): boolean {
  if (model.provider !== 'ollama' || (error.status !== 404 && error.status !== 501)) return false;
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message !== 'string';
}

/**
 * The error to throw for a failed call. Caller aborts come back unchanged (the signal's
 * reason), ProviderErrors pass through, everything else becomes a ProviderError.
 */
export function toProviderError(
  error: unknown,
  model: ResolvedModel,
  signal?: AbortSignal,
): unknown {
  if (signal?.aborted) return signal.reason ?? error;
  if (error instanceof ProviderError) return error;
  const provider = model.provider;
  const redact = (text: string): string => redactKey(text, model.apiKey);
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionError) {
    const network = classifyNetworkError(error);
    if (model.provider === 'ollama' && network?.kind === 'connection_refused') {
      return new LocalServerDownError(provider, model.baseUrl ?? '', model.config, {
        cause: error,
      });
    }
    return new ProviderNetworkError(redact(error.message), provider, network?.kind ?? 'network', {
      cause: error,
    });
  }
  if (error instanceof APIError && error.status !== undefined) {
    if (isMissingRoute(model, error)) {
      return new ProviderError(
        responsesApiMissingMessage(model.baseUrl ?? ''),
        provider,
        error.status,
        false,
      );
    }
    return statusError(redact(error.message), provider, error.status, error.headers);
  }
  if (error instanceof APIError) {
    // An `{"error": ...}` object inside the event stream: the SDK throws it without a status.
    const code = error.code ?? error.type;
    const retryable = typeof code === 'string' && RETRYABLE_EVENT_CODES.has(code);
    return new ProviderError(redact(error.message), provider, undefined, retryable, undefined, {
      cause: error,
    });
  }
  const message = redact(reasonOf(error));
  const network = classifyNetworkError(error);
  if (network !== undefined) {
    return new ProviderNetworkError(message, provider, network.kind, { cause: error });
  }
  return new ProviderError(message, provider, undefined, false, undefined, { cause: error });
}
