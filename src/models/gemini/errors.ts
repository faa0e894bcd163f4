/**
 * `@google/genai` failures → ProviderError. The SDK's ApiError carries only a status and the
 * JSON error body as its message, so the response headers (for Retry-After) come from the
 * adapter's fetch wrapper and the provider's message is read out of the body.
 */
import { ApiError } from '@google/genai';
import { classifyNetworkError, statusError, type HeaderSource } from '../http-retry.ts';
import { ProviderNetworkError } from '../provider-errors.ts';
import { redactKey } from '../redact-key.ts';
import { reasonOf } from '../../base/reason.ts';

const PROVIDER = 'gemini';

/** `error.message` of a Google error body (`{error: {code, message, status}}`), else the text itself. */
export function googleErrorMessage(text: string): string {
  try {
    // Errors inside a stream arrive as `got status: X. {json}`.
    const body = JSON.parse(text.slice(Math.max(0, text.indexOf('{')))) as unknown;
    const error = (body as { error?: { message?: unknown } } | null)?.error;
    if (typeof error?.message === 'string' && error.message !== '') return error.message;
  } catch {
    // Not JSON: the whole text is the best message there is.
  }
  return text;
}

/**
 * Converts an error thrown by the SDK into a ProviderError with the API key redacted; errors
 * that are neither the API's nor the network's are returned unchanged.
 */
export function toGeminiProviderError(
  error: unknown,
  apiKey: string | undefined,
  headers?: HeaderSource,
): unknown {
  if (error instanceof ApiError) {
    const message = redactKey(googleErrorMessage(error.message), apiKey);
    // No `cause`: the SDK error's message is the unredacted body.
    return statusError(message, PROVIDER, error.status, headers);
  }
  const network = classifyNetworkError(error);
  if (network !== undefined) {
    const message = redactKey(`connection to Gemini failed: ${reasonOf(error)}`, apiKey);
    return new ProviderNetworkError(message, PROVIDER, network.kind, { cause: error });
  }
  return error;
}
