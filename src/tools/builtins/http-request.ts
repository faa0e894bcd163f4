import { REDIRECT_STATUSES, transportFetch } from '../../base/http/index.ts';
import { MAX_BODY_BYTES, bodyForModel, mediaTypeOf, readCappedBody } from './http-body.ts';
import type { HttpFailure } from './http-failure.ts';
import { classifyNetworkError, httpFailure } from './http-failure.ts';
import { reasonOf } from '../../base/reason.ts';

/** The HTTP methods the tools speak. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Default whole-request time limit: 30 s from the first byte sent to the last byte read. */
export const DEFAULT_HTTP_TIMEOUT_MS = 30_000;
/** Redirects followed before giving up. */
export const MAX_REDIRECTS = 5;

/** One request, already evaluated (custom tool templates are filled in by the caller). */
export interface HttpRequest {
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  /** Appended to the URL's query string, URL-encoded. */
  query?: Record<string, string>;
  /** Sent as JSON (`content-type: application/json` unless a header sets one). */
  body?: unknown;
  /** Sent as is; for the built-in tools, where a model may post text or forms. */
  rawBody?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  maxBodyBytes?: number;
}

/** A response that arrived (any HTTP status). */
export interface HttpResponse {
  ok: true;
  status: number;
  contentType: string;
  /** Parsed JSON, text, or a description of binary content. */
  body: unknown;
  truncated: boolean;
  /** The URL finally answered, after redirects. */
  url: string;
}

export type HttpResult = HttpResponse | HttpFailure;

const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * Sends one HTTP request through sortie's HTTP transport and reads its response. Never throws:
 * every failure (bad URL, refused connection, DNS, time-out, reset, abort, redirect trouble) is
 * an `HttpFailure` naming the URL. Redirects are followed by hand so each hop is checked for
 * http(s).
 */
export async function executeHttpRequest(request: HttpRequest): Promise<HttpResult> {
  const start = parseHttpUrl(request.url, request.query);
  if (!(start instanceof URL)) return start;
  const headers = buildHeaders(request, start.href);
  if (!(headers instanceof Headers)) return headers;

  const timeout = new AbortController();
  const timeoutMs = request.timeoutMs ?? DEFAULT_HTTP_TIMEOUT_MS;
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  const signals =
    request.signal === undefined ? [timeout.signal] : [timeout.signal, request.signal];
  const signal = AbortSignal.any(signals);
  let url = start;
  try {
    let method: HttpMethod = request.method;
    let body = encodeBody(request, headers);
    for (let hop = 0; ; hop++) {
      const response = await transportFetch(url, {
        method,
        headers,
        body,
        redirect: 'manual',
        signal,
      });
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || location === null) {
        const capped = await readCappedBody(response.body, request.maxBodyBytes ?? MAX_BODY_BYTES);
        const contentType = response.headers.get('content-type') ?? '';
        return {
          ok: true,
          status: response.status,
          contentType,
          body: bodyForModel(capped, mediaTypeOf(contentType)),
          truncated: capped.truncated,
          url: url.href,
        };
      }
      await response.body?.cancel().catch(() => undefined);
      if (hop >= MAX_REDIRECTS) {
        return httpFailure(
          'too_many_redirects',
          start.href,
          `more than ${MAX_REDIRECTS} redirects`,
        );
      }
      const next = resolveRedirect(location, url);
      if (!(next instanceof URL)) return next;
      // Credentials stay with the origin they were given for, as browsers do.
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) headers.delete(name);
      // 303, and 301/302 after a POST, turn into a GET without a body (browser behaviour).
      if (response.status === 303 || (method === 'POST' && response.status <= 302)) {
        if (method !== 'GET') headers.delete('content-type');
        method = 'GET';
        body = undefined;
      }
      url = next;
    }
  } catch (error) {
    if (timeout.signal.aborted) {
      return httpFailure('timeout', url.href, `timed out after ${formatSeconds(timeoutMs)}`);
    }
    if (request.signal?.aborted === true) return httpFailure('aborted', url.href, 'aborted');
    return classifyNetworkError(error, url.href);
  } finally {
    clearTimeout(timer);
  }
}

function parseHttpUrl(text: string, query: Record<string, string> | undefined): URL | HttpFailure {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return httpFailure('invalid_url', text, 'not a valid absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return httpFailure('unsupported_scheme', text, `only http and https URLs are allowed`);
  }
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.append(name, value);
  return url;
}

function resolveRedirect(location: string, from: URL): URL | HttpFailure {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return httpFailure('bad_redirect', from.href, `redirect to an invalid URL: ${location}`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    return httpFailure(
      'bad_redirect',
      from.href,
      `redirect to a non-http(s) URL refused: ${next.href}`,
    );
  }
  return next;
}

/**
 * Builds the header set before any I/O, so malformed names or values fail cleanly. CR and
 * LF are refused by name: `Headers` silently strips them at the ends of a value and its own
 * message quotes the whole value.
 */
function buildHeaders(request: HttpRequest, url: string): Headers | HttpFailure {
  for (const [name, value] of Object.entries(request.headers ?? {})) {
    if (/[\r\n]/.test(value)) {
      return httpFailure(
        'invalid_request',
        url,
        `the header "${name}" contains a line break (CR or LF); header values must be one line`,
      );
    }
  }
  try {
    return new Headers(request.headers ?? {});
  } catch (error) {
    return httpFailure('invalid_request', url, `invalid header: ${reasonOf(error)}`);
  }
}

function encodeBody(request: HttpRequest, headers: Headers): string | undefined {
  if (request.method === 'GET') return undefined;
  if (request.rawBody !== undefined) return request.rawBody;
  if (request.body === undefined) return undefined;
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return JSON.stringify(request.body);
}

function formatSeconds(milliseconds: number): string {
  const seconds = milliseconds / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}
