/**
 * Redirects followed as fetch follows them (fetch.spec.whatwg.org, "HTTP-redirect fetch", the
 * steps of Node's own fetch): at most 20, http(s) only, 301/302 after a POST and 303 after
 * anything but GET or HEAD become a GET without a body or its content headers, and a move to
 * another origin drops the credentials. The transport follows them itself rather than through
 * undici's redirect interceptor, which costs every request (a handler and a URL of history per
 * request; bench/README.md) when almost none is redirected; this costs nothing until a
 * redirect comes.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { isBadPort, type PlannedRequest } from './plan-request.ts';

/** The statuses fetch treats as redirects. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Redirects followed before a request fails, as fetch counts them. */
export const MAX_REDIRECTS = 20;

/** Headers about a request's body, dropped with the body. */
const BODY_HEADERS: ReadonlySet<string> = new Set([
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
]);

/** Headers a request does not carry to another origin. */
const ORIGIN_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'host',
]);

/** The `location` of a response, as one string; undefined without one. */
export function locationOf(headers: IncomingHttpHeaders): string | undefined {
  const location = headers.location;
  return Array.isArray(location) ? location.join(', ') : location;
}

/** fetch's rejection for a redirect it will not follow. */
export function redirectFailed(reason: string | Error): TypeError {
  return new TypeError('fetch failed', {
    cause: typeof reason === 'string' ? new Error(reason) : reason,
  });
}

/**
 * The request that follows a `status` response pointing to `location`, after `redirects`
 * redirects; throws fetch's "fetch failed" TypeError where fetch gives a network error.
 */
export function redirectedRequest(
  current: PlannedRequest,
  status: number,
  location: string,
  redirects: number,
): PlannedRequest {
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch (error) {
    throw redirectFailed(error as Error);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw redirectFailed('URL scheme must be a HTTP(S) scheme');
  }
  if (redirects >= MAX_REDIRECTS) throw redirectFailed('redirect count exceeded');
  const crossOrigin = url.origin !== current.url.origin;
  if (crossOrigin && (url.username !== '' || url.password !== '')) {
    throw redirectFailed('cross origin not allowed for request mode "cors"');
  }
  if (isBadPort(url)) throw redirectFailed('bad port');
  const { method, body, headers } = current.options;
  const toGet =
    ((status === 301 || status === 302) && method === 'POST') ||
    (status === 303 && method !== 'GET' && method !== 'HEAD');
  return {
    kind: 'send',
    url,
    redirect: current.redirect,
    options: {
      ...current.options,
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: toGet ? 'GET' : method,
      body: toGet ? null : body,
      headers: withoutHeaders(headers, toGet ? BODY_HEADERS : undefined, crossOrigin),
    },
  };
}

function withoutHeaders(
  headers: string[],
  bodyHeaders: ReadonlySet<string> | undefined,
  crossOrigin: boolean,
): string[] {
  if (bodyHeaders === undefined && !crossOrigin) return headers;
  const kept: string[] = [];
  for (let index = 0; index < headers.length; index += 2) {
    const name = headers[index]!;
    if (bodyHeaders?.has(name) === true || (crossOrigin && ORIGIN_HEADERS.has(name))) continue;
    kept.push(name, headers[index + 1]!);
  }
  return kept;
}
