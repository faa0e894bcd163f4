/**
 * The one retry policy for model calls (SDK-internal retries are off). Retries only
 * ProviderErrors marked retryable; every wait is reported and abortable.
 */
import { ProviderError } from '../base/errors.ts';
import { sleep } from '../base/sleep.ts';
import type { ModelClient, ModelRequest, ModelResponse } from './model-types.ts';
import { failureReason, type FailureReason } from './provider-errors.ts';

/** What a `model.retry` event reports about one wait. */
export interface RetryNotice {
  /** 1 for the first retry. */
  attempt: number;
  waitMs: number;
  reason: FailureReason;
  status?: number;
  /** The failure's message (API keys already redacted by the adapter). */
  message: string;
}

export interface RetryOptions {
  /** Default 6. */
  maxRetries?: number;
  /** First backoff ceiling; default 1000 ms, doubled per retry. */
  baseDelayMs?: number;
  /** Default 60,000 ms. */
  maxDelayMs?: number;
  /** Told before each wait, with the request object being retried (clients are shared). */
  onRetry?: (notice: RetryNotice, request: ModelRequest) => void;
  /** Injectable for tests; must reject when the signal aborts. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
  /** Injectable for tests; returns [0, 1). */
  random?: () => number;
}

export const DEFAULT_MAX_RETRIES = 6;
export const DEFAULT_BASE_DELAY_MS = 1000;
export const DEFAULT_MAX_DELAY_MS = 60_000;

/** The exponential wait before retry `attempt` (1-based) with full jitter, capped. */
export function backoffDelay(
  attempt: number,
  random: () => number,
  baseDelayMs = 1000,
  maxDelayMs = 60_000,
): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Wraps a client so retryable ProviderErrors are retried per the policy in models.md. */
export function withRetry(client: ModelClient, options: RetryOptions = {}): ModelClient {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const wait = options.sleep ?? sleep;
  const random = options.random ?? Math.random;

  async function generate(request: ModelRequest): Promise<ModelResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await client.generate(request);
      } catch (error) {
        if (!(error instanceof ProviderError) || !error.retryable || attempt > maxRetries)
          throw error;
        request.signal?.throwIfAborted();
        const waitMs = error.retryAfterMs ?? backoffDelay(attempt, random, baseDelayMs, maxDelayMs);
        const notice: RetryNotice = {
          attempt,
          waitMs,
          reason: failureReason(error),
          message: error.message,
        };
        if (error.status !== undefined) notice.status = error.status;
        options.onRetry?.(notice, request);
        await wait(waitMs, request.signal);
      }
    }
  }

  return { model: client.model, generate };
}
