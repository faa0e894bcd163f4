/**
 * HTTP-level retry facts shared by every adapter: which statuses are retryable, how long a
 * server asked us to wait, and which network failures are worth another attempt.
 */
import { ProviderError } from '../base/errors.ts';
import { errorCodes } from '../base/http/index.ts';

/** Statuses that mean "try again later" (models.md, Retries and faults). */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

/** True for 408, 409, 429, 500, 502, 503, 504 and 529. */
export function isRetryableStatus(status: number | undefined): boolean {
  return status !== undefined && RETRYABLE_STATUSES.has(status);
}

/** Response headers as the SDKs expose them: a fetch `Headers` or a plain record. */
export type HeaderSource =
  Headers | Record<string, string | string[] | undefined> | undefined | null;

function readHeader(headers: HeaderSource, name: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (typeof (headers as Headers).get === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() !== name) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

/**
 * The wait a server asked for, in milliseconds: `retry-after-ms` first, then `Retry-After`
 * as seconds or as an HTTP date (relative to `now`). Undefined when absent or unparsable.
 */
export function parseRetryAfter(
  headers: HeaderSource,
  now: number = Date.now(),
): number | undefined {
  const milliseconds = readHeader(headers, 'retry-after-ms')?.trim();
  if (milliseconds !== undefined && /^\d+(\.\d+)?$/.test(milliseconds)) {
    return Math.round(Number(milliseconds));
  }
  const retryAfter = readHeader(headers, 'retry-after')?.trim();
  if (retryAfter === undefined || retryAfter === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(retryAfter)) return Math.round(Number(retryAfter) * 1000);
  const date = Date.parse(retryAfter);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** A ProviderError for an HTTP error status: retryable by the status, after the wait its headers ask. */
export function statusError(
  message: string,
  provider: string,
  status: number,
  headers: HeaderSource,
): ProviderError {
  const retryAfterMs = parseRetryAfter(headers);
  return new ProviderError(message, provider, status, isRetryableStatus(status), retryAfterMs);
}

/** The network failures sortie recognises. */
export type NetworkFailureKind = 'connection_reset' | 'connection_refused' | 'dns' | 'network';

/** A recognised network failure: what happened and the system code that said so. */
export interface NetworkFailure {
  kind: NetworkFailureKind;
  code: string;
  retryable: boolean;
}

const NETWORK_CODES: Readonly<Record<string, NetworkFailureKind>> = {
  ECONNRESET: 'connection_reset',
  EPIPE: 'connection_reset',
  ECONNABORTED: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  UND_ERR_CLOSED: 'connection_reset',
  ECONNREFUSED: 'connection_refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ETIMEDOUT: 'network',
  EHOSTUNREACH: 'network',
  ENETUNREACH: 'network',
  ENETDOWN: 'network',
  UND_ERR_CONNECT_TIMEOUT: 'network',
  UND_ERR_HEADERS_TIMEOUT: 'network',
  UND_ERR_BODY_TIMEOUT: 'network',
};

/**
 * Classifies an error (walking its `cause` chain and aggregate `errors`) by system error
 * code — never by message text. Undefined when no known network code is found.
 */
export function classifyNetworkError(error: unknown): NetworkFailure | undefined {
  for (const code of errorCodes(error)) {
    const kind = NETWORK_CODES[code];
    if (kind !== undefined) return { kind, code, retryable: true };
  }
  return undefined;
}
