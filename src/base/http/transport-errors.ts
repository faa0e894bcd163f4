/**
 * The errors of the transport, shaped as fetch's so that what classifies fetch's failures (the
 * SDKs' connection errors, `classifyNetworkError`) classifies these the same way: a request
 * that fails is a `TypeError('fetch failed')`, a body that breaks is a `TypeError('terminated')`,
 * each with undici's error (and its `code`) as `cause`; an abort is the signal's reason.
 */
import { SortieError } from '../errors.ts';

/** Something fetch can do that the transport does not (`feature` names it). */
export class TransportUnsupportedError extends SortieError {
  constructor(readonly feature: string) {
    super(`sortie's HTTP transport does not support ${feature}; use the global fetch for it`);
  }
}

/** A request that failed before its response, as fetch rejects it. */
export function fetchFailed(cause: unknown, signal: AbortSignal | null | undefined): unknown {
  if (signal?.aborted === true) return signal.reason;
  return new TypeError('fetch failed', { cause });
}

/** A response body that broke while it was read, as fetch's body stream errors. */
export function bodyTerminated(cause: unknown, signal: AbortSignal | null | undefined): unknown {
  if (signal?.aborted === true) return signal.reason;
  return new TypeError('terminated', { cause });
}

/**
 * The string `code`s of an error and of the errors behind it (its `cause` chain, an
 * AggregateError's `errors`), nearest first: fetch and undici wrap the socket's error, so its
 * system code is seldom on the error thrown.
 */
export function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.shift();
    if (current === null || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const { code, cause, errors } = current as {
      code?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string') codes.push(code);
    pending.push(cause);
    if (Array.isArray(errors)) pending.push(...errors);
  }
  return codes;
}
