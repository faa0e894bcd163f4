/**
 * sortie's HTTP transport: fetch's contract on undici's `request()` and one keep-alive Agent
 * per process, without the WHATWG Request, Response and web streams the global fetch builds
 * for every request (much of the CPU an SDK spends per streamed request; bench/README.md). The
 * model SDKs get it as their `fetch` (`sdkFetch`), the HTTP tools call `transportFetch`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { cancelWhenDropped, discardStream, TransportBody } from './response-body.ts';
import { decodeBody, needsDecoding } from './content-encoding.ts';
import { loadDispatchers, loadedDispatchers } from './dispatchers.ts';
import { fetchFailed, TransportUnsupportedError } from './transport-errors.ts';
import { planRequest, type PlannedRequest, type TransportInit } from './plan-request.ts';
import { locationOf, REDIRECT_STATUSES, redirectedRequest, redirectFailed } from './redirects.ts';
import { TransportResponse } from './response.ts';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * fetch for what the transport sends itself: a string or URL of http(s), a string, bytes or
 * URLSearchParams body. Rejects as fetch rejects (TypeError, or the signal's reason), and with a
 * TransportUnsupportedError for another URL scheme.
 */
export async function transportFetch(
  input: string | URL,
  init?: TransportInit,
): Promise<TransportResponse> {
  const planned = planRequest(input, init);
  if (planned.kind === 'unsupported') throw new TransportUnsupportedError(planned.feature);
  return send(planned);
}

/**
 * The transport typed as fetch, for the SDKs' `fetch` option. What it does not send itself (a
 * `Request` object; a FormData, Blob or stream body; a `dispatcher` or `integrity` option; a
 * URL other than http(s)) goes through the global fetch.
 */
export const sdkFetch: typeof fetch = async (input, init) => {
  const own =
    (typeof input === 'string' || input instanceof URL) &&
    (init === undefined || (!('dispatcher' in init) && !init.integrity));
  // The body's kind is checked by planRequest, which answers `unsupported` for the others.
  const planned = own ? planRequest(input, init as TransportInit | undefined) : undefined;
  if (planned === undefined || planned.kind === 'unsupported') return fetch(input, init);
  // A TransportResponse is what the SDKs read of a Response; its body is an async iterable
  // (which their stream readers take) rather than a ReadableStream.
  return (await send(planned)) as unknown as Response;
};

async function send(first: PlannedRequest): Promise<TransportResponse> {
  const signal = first.options.signal as AbortSignal | null;
  if (signal?.aborted === true) throw signal.reason;
  const { agent, request } = loadedDispatchers() ?? (await loadDispatchers());
  let planned = first;
  for (let redirects = 0; ; redirects++) {
    let data: Dispatcher.ResponseData;
    try {
      data = await request(agent, planned.options);
    } catch (error) {
      throw fetchFailed(error, signal);
    }
    const status = data.statusCode;
    if (planned.redirect === 'manual' || !REDIRECT_STATUSES.has(status)) {
      return toResponse(data, planned, redirects > 0, signal);
    }
    if (planned.redirect === 'error') {
      discardStream(data.body);
      throw redirectFailed('unexpected redirect');
    }
    const location = locationOf(data.headers);
    if (location === undefined) return toResponse(data, planned, redirects > 0, signal);
    // fetch drops a redirect's connection with its body rather than reading what is left.
    discardStream(data.body);
    planned = redirectedRequest(planned, status, location, redirects);
  }
}

function toResponse(
  data: Dispatcher.ResponseData,
  planned: PlannedRequest,
  redirected: boolean,
  signal: AbortSignal | null,
): TransportResponse {
  const status = data.statusCode;
  const headers = toHeaders(data.headers);
  let body: TransportBody | null = null;
  if (planned.options.method === 'HEAD' || NULL_BODY_STATUSES.has(status)) {
    // Nothing comes on the wire: let the empty stream end.
    data.body.on('error', () => undefined).resume();
  } else {
    const coding = headers.get('content-encoding') ?? undefined;
    const source = needsDecoding(coding) ? decodeBody(data.body, coding!) : data.body;
    body = new TransportBody(source, signal);
  }
  const response = new TransportResponse({
    status,
    statusText: data.statusText,
    headers,
    url: withoutFragment(planned.url),
    redirected,
    body,
  });
  if (body !== null) cancelWhenDropped(response, body);
  return response;
}

function toHeaders(record: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const name in record) {
    const value = record[name];
    if (value === undefined) continue;
    if (typeof value === 'string') headers.append(name, value);
    else for (const each of value) headers.append(name, each);
  }
  return headers;
}

function withoutFragment(url: URL): string {
  const hash = url.href.indexOf('#');
  return hash === -1 ? url.href : url.href.slice(0, hash);
}
