/** Removes credentials from what the scripted server records about a request. */
import type { IncomingHttpHeaders } from 'node:http';

export const REDACTED = '[redacted]';

const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'cookie',
]);

const CREDENTIAL_QUERY_PARAMETERS = new Set(['key', 'api_key', 'apikey', 'access_token', 'token']);

/** Lower-cased headers joined to strings, credentials replaced by `[redacted]`. */
export function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    result[lower] = CREDENTIAL_HEADERS.has(lower)
      ? REDACTED
      : Array.isArray(value)
        ? value.join(', ')
        : value;
  }
  return result;
}

/** The request path with credential query parameters (`key`, `api_key`, ...) redacted. */
export function redactPath(rawUrl: string): string {
  const url = new URL(rawUrl, 'http://127.0.0.1');
  let changed = false;
  for (const name of [...url.searchParams.keys()]) {
    if (!CREDENTIAL_QUERY_PARAMETERS.has(name.toLowerCase())) continue;
    url.searchParams.set(name, REDACTED);
    changed = true;
  }
  if (!changed) return rawUrl;
  return `${url.pathname}?${url.searchParams.toString().replaceAll(encodeURIComponent(REDACTED), REDACTED)}`;
}
