/**
 * fetch's input and init turned into the options of undici's `request()`, with fetch's checks
 * and defaults: the same TypeErrors for what fetch refuses, the same default headers (except
 * `accept-encoding`: the transport asks for no compression), the same content types for text
 * and form bodies. What the transport does not send itself comes back as `unsupported`.
 */
import type { Dispatcher } from 'undici';

/** A body the transport sends itself. */
export type TransportBodyInit = string | Uint8Array | ArrayBuffer | URLSearchParams;

/** What `transportFetch` accepts of fetch's init. */
export interface TransportInit {
  method?: string;
  headers?: ConstructorParameters<typeof Headers>[0];
  body?: TransportBodyInit | null;
  /** Default `'follow'`, as fetch. */
  redirect?: 'follow' | 'manual' | 'error';
  signal?: AbortSignal | null;
}

/** A request ready for undici. */
export interface PlannedRequest {
  kind: 'send';
  url: URL;
  redirect: 'follow' | 'manual' | 'error';
  /** Headers as undici's flat name/value list, names in lower case. */
  options: Dispatcher.RequestOptions & { headers: string[] };
}

/** A request the transport leaves to the global fetch; `feature` names why. */
export interface UnsupportedRequest {
  kind: 'unsupported';
  feature: string;
}

/** Methods fetch upper-cases; any other is sent as written. */
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const METHOD_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Ports fetch refuses to connect to (fetch.spec.whatwg.org, "bad port"). */
const BAD_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102,
  103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465,
  512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
  995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668,
  6669, 6679, 6697, 10080,
]);

/**
 * Plans one request. Throws what fetch would reject with before sending (a TypeError, or
 * fetch's "fetch failed" TypeError for a bad port); `unsupported` for what the global fetch
 * should send instead.
 */
export function planRequest(
  input: string | URL,
  init: TransportInit | undefined,
): PlannedRequest | UnsupportedRequest {
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { kind: 'unsupported', feature: `${url.protocol} URLs` };
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError(
      `Request cannot be constructed from a URL that includes credentials: ${url.href}`,
    );
  }
  if (isBadPort(url)) throw new TypeError('fetch failed', { cause: new Error('bad port') });
  const method = normalizeMethod(init?.method);
  const redirect = init?.redirect ?? 'follow';
  if (redirect !== 'follow' && redirect !== 'manual' && redirect !== 'error') {
    throw new TypeError(`'${String(redirect)}' is not a valid redirect mode`);
  }
  const rawBody = init?.body ?? null;
  if (rawBody !== null && (method === 'GET' || method === 'HEAD')) {
    throw new TypeError('Request with GET/HEAD method cannot have body.');
  }
  const body = encodeBody(rawBody);
  if (body === undefined) return { kind: 'unsupported', feature: 'this kind of request body' };
  const headers = headerList(init?.headers, body.contentType);
  return {
    kind: 'send',
    url,
    redirect,
    options: {
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body.bytes,
      signal: init?.signal ?? null,
    },
  };
}

/** True for a port fetch refuses to connect to. */
export function isBadPort(url: URL): boolean {
  return url.port !== '' && BAD_PORTS.has(Number(url.port));
}

function normalizeMethod(method: string | undefined): string {
  if (method === undefined) return 'GET';
  if (!METHOD_TOKEN.test(method)) throw new TypeError(`'${method}' is not a valid HTTP method.`);
  const upper = method.toUpperCase();
  if (FORBIDDEN_METHODS.has(upper)) throw new TypeError(`'${method}' HTTP method is unsupported.`);
  return NORMALIZED_METHODS.has(upper) ? upper : method;
}

interface EncodedBody {
  bytes: string | Uint8Array | null;
  /** The content type fetch gives this kind of body when no header sets one. */
  contentType: string | undefined;
}

/** The body as undici sends it; undefined for a kind the transport does not send. */
function encodeBody(body: unknown): EncodedBody | undefined {
  if (body === null) return { bytes: null, contentType: undefined };
  if (typeof body === 'string') return { bytes: body, contentType: 'text/plain;charset=UTF-8' };
  // fetch sends the bytes as they were when it was called: a copy, as fetch makes.
  if (body instanceof ArrayBuffer)
    return { bytes: new Uint8Array(body.slice(0)), contentType: undefined };
  if (ArrayBuffer.isView(body)) {
    const view = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    return { bytes: view.slice(), contentType: undefined };
  }
  if (body instanceof URLSearchParams) {
    return {
      bytes: body.toString(),
      contentType: 'application/x-www-form-urlencoded;charset=UTF-8',
    };
  }
  return undefined;
}

/**
 * The request headers as undici's flat name/value list, with fetch's defaults for those the
 * caller left out (no `sec-fetch-mode`: there is no browser here; no `accept-encoding`: the
 * transport asks for no compression). A `Headers` is read as it is (it validated its entries);
 * any other form goes through `new Headers()` first, so a bad name or value is fetch's TypeError.
 */
function headerList(
  init: ConstructorParameters<typeof Headers>[0],
  contentType: string | undefined,
): string[] {
  const headers = init === undefined || init instanceof Headers ? init : new Headers(init);
  const list: string[] = [];
  let accept = false;
  let language = false;
  let agent = false;
  let type = contentType === undefined;
  if (headers !== undefined) {
    for (const [name, value] of headers) {
      list.push(name, value);
      if (name === 'accept') accept = true;
      else if (name === 'accept-language') language = true;
      else if (name === 'user-agent') agent = true;
      else if (name === 'content-type') type = true;
    }
  }
  if (!accept) list.push('accept', '*/*');
  if (!language) list.push('accept-language', '*');
  if (!agent) list.push('user-agent', 'node');
  if (!type) list.push('content-type', contentType!);
  return list;
}
