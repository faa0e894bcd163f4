/**
 * Anthropic SDK failures → ProviderError. Retryability comes from the HTTP status, or for
 * failures without one from the SDK's error class and the error body's `type` field.
 */
import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ProviderError } from '../../base/errors.ts';
import { classifyNetworkError, statusError } from '../http-retry.ts';
import { ProviderNetworkError } from '../provider-errors.ts';
import { redactKey } from '../redact-key.ts';
import { reasonOf } from '../../base/reason.ts';

const PROVIDER = 'anthropic';

/**
 * Error types the API sends inside an otherwise healthy stream (`event: error`), which carry
 * no status: the ones that mean "try again" are retryable.
 */
const RETRYABLE_STREAM_ERROR_TYPES: ReadonlySet<string> = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
]);

/**
 * Converts an error thrown by the SDK into a ProviderError with the API key redacted.
 * Errors that are not the SDK's (bugs, aborts handled by the caller) are returned unchanged.
 */
export function toAnthropicProviderError(error: unknown, apiKey: string | undefined): unknown {
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionError) {
    const network = classifyNetworkError(error);
    const message = redactKey(`connection to Anthropic failed: ${error.message}`, apiKey);
    return new ProviderNetworkError(message, PROVIDER, network?.kind ?? 'network', {
      cause: error,
    });
  }
  if (error instanceof APIError) {
    // The provider's own message (the body's `error.message`), falling back to the SDK's text.
    const message = redactKey(error.apiMessage ?? error.message, apiKey);
    if (error.status === undefined) {
      const retryable = error.type !== null && RETRYABLE_STREAM_ERROR_TYPES.has(error.type);
      return new ProviderError(message, PROVIDER, undefined, retryable);
    }
    // No `cause`: the SDK error's own message and body are unredacted.
    return statusError(message, PROVIDER, error.status, error.headers);
  }
  const network = classifyNetworkError(error);
  if (network !== undefined) {
    const message = redactKey(`connection to Anthropic failed: ${reasonOf(error)}`, apiKey);
    return new ProviderNetworkError(message, PROVIDER, network.kind, { cause: error });
  }
  return error;
}
