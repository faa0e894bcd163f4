/**
 * ProviderError subclasses that carry *why* a request failed as data, so retry notices and
 * events can name the cause without reading message text.
 */
import { ProviderError } from '../base/errors.ts';
import type { NetworkFailureKind } from './http-retry.ts';
import type { FailureReason } from '../base/events.ts';

export type { FailureReason } from '../base/events.ts';

/** Which of the three request deadlines expired. */
export type TimeoutKind = 'first_byte' | 'idle' | 'total';

/** A request deadline expired (always retryable). */
export class ProviderTimeoutError extends ProviderError {
  constructor(
    provider: string,
    readonly timeout: TimeoutKind,
    readonly limitMs: number,
  ) {
    super(timeoutMessage(timeout, limitMs), provider, undefined, true);
  }
}

function timeoutMessage(timeout: TimeoutKind, limitMs: number): string {
  const seconds = limitMs / 1000;
  if (timeout === 'first_byte') return `no response within ${seconds} s`;
  if (timeout === 'idle') return `the response stream was silent for ${seconds} s`;
  return `the request took longer than ${seconds} s`;
}

/** The connection failed (reset, refused, DNS); retryable. */
export class ProviderNetworkError extends ProviderError {
  constructor(
    message: string,
    provider: string,
    readonly network: NetworkFailureKind,
    options?: { cause?: unknown },
  ) {
    super(message, provider, undefined, true, undefined, options);
  }
}

/**
 * A local model server refused the connection: nothing listens at its address, and waiting
 * will not start it, so this is not retried (a remote API's refusal still is).
 */
export class LocalServerDownError extends ProviderError {
  constructor(
    provider: string,
    readonly baseUrl: string,
    readonly config: string,
    options?: { cause?: unknown },
  ) {
    super(
      // The first line is what one-line logs show; the hint follows on its own line.
      `nothing answers at ${baseUrl} (connection refused)\nhint: start the model server (Ollama: \`ollama serve\`) or correct base_url of model "${config}"`,
      provider,
      undefined,
      false,
      undefined,
      options,
    );
  }
}

/** The response stream ended before its final event; retryable. */
export class TruncatedStreamError extends ProviderError {
  constructor(provider: string) {
    super('the response stream ended before its final event', provider, undefined, true);
  }
}

/** The failure reason carried by a ProviderError (by class and fields, never by text). */
export function failureReason(error: ProviderError): FailureReason {
  if (error instanceof ProviderTimeoutError) return `timeout_${error.timeout}`;
  if (error instanceof ProviderNetworkError) return 'network';
  if (error instanceof TruncatedStreamError) return 'truncated_stream';
  if (error.status !== undefined) return 'status';
  return 'other';
}
