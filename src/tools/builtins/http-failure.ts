import { errorCodes } from '../../base/http/index.ts';
import { reasonOf } from '../../base/reason.ts';

/** Why an HTTP request produced no response; each kind reads as a short phrase in messages. */
export type HttpFailureKind =
  | 'invalid_url'
  | 'unsupported_scheme'
  | 'invalid_request'
  | 'refused'
  | 'dns'
  | 'timeout'
  | 'reset'
  | 'aborted'
  | 'too_many_redirects'
  | 'bad_redirect'
  | 'network';

/** A request that failed before a usable response arrived. */
export interface HttpFailure {
  ok: false;
  kind: HttpFailureKind;
  /** Model-facing text naming the URL and what went wrong. */
  message: string;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NODATA', 'EAI_FAIL']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'ECONNABORTED']);
const TIMEOUT_CODES = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Builds a failure result for `url` with the given kind and detail phrase. */
export function httpFailure(kind: HttpFailureKind, url: string, detail: string): HttpFailure {
  return { ok: false, kind, message: `request to ${url} failed: ${detail}` };
}

/**
 * Classifies a network error thrown by fetch or by sortie's HTTP transport (which throws as
 * fetch does) by the nearest code behind it.
 */
export function classifyNetworkError(error: unknown, url: string): HttpFailure {
  const code = errorCodes(error)[0];
  if (code === 'ECONNREFUSED') return httpFailure('refused', url, 'connection refused');
  if (code !== undefined && DNS_CODES.has(code)) {
    return httpFailure('dns', url, 'DNS lookup failed (host not found)');
  }
  if (code !== undefined && RESET_CODES.has(code)) {
    return httpFailure('reset', url, 'connection reset by the server');
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    return httpFailure('timeout', url, 'the connection timed out');
  }
  if (code === 'UND_ERR_INVALID_ARG') {
    return httpFailure('invalid_request', url, `invalid request: ${reasonOf(error)}`);
  }
  return httpFailure('network', url, `network error${code === undefined ? '' : ` (${code})`}`);
}
