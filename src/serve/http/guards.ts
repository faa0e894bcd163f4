/**
 * What every request passes before a route sees it: the Host check on loopback binds (a page
 * on another site resolving its name to 127.0.0.1 must not reach the server: DNS rebinding),
 * the bearer token when one is set, the body limit, CORS only for the one origin allowed, and
 * JSON errors instead of stack traces.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** The largest request body accepted: 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** The JSON error every refusal answers: `{"error": {"code", "message", ...}}`. */
export function jsonError(
  context: Context,
  status: ContentfulStatusCode,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): Response {
  return context.json({ error: { code, message, ...details } }, status);
}

/** Whether `host` is a loopback address: only there is the Host header checked. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** The Host headers a loopback server at `port` answers to. */
export function loopbackHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

/** Refuses (403) a Host header not naming the server itself; `allowed` is read per request. */
export function hostCheck(allowed: () => ReadonlySet<string> | undefined): MiddlewareHandler {
  return async (context, next) => {
    const hosts = allowed();
    const host = context.req.header('host')?.toLowerCase() ?? '';
    if (hosts !== undefined && !hosts.has(host)) {
      return jsonError(
        context,
        403,
        'forbidden_host',
        'the Host header does not name this server; use its own address',
      );
    }
    await next();
  };
}

/**
 * Compares two texts in constant time: both are hashed first, so neither their lengths nor
 * their contents show in how long the comparison takes.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Refuses (401) a request without `Authorization: Bearer <token>`; with `query`, `?token=<token>`
 * is accepted too (MCP clients that cannot send headers), and `message` says what to send.
 */
export function bearerToken(
  token: string,
  options: { query?: boolean; message?: string } = {},
): MiddlewareHandler {
  return async (context, next) => {
    const header = context.req.header('authorization') ?? '';
    const given = header.startsWith('Bearer ')
      ? header.slice('Bearer '.length)
      : options.query === true
        ? context.req.query('token')
        : undefined;
    if (given === undefined || !sameSecret(given, token)) {
      context.header('WWW-Authenticate', 'Bearer');
      const message = options.message ?? 'send Authorization: Bearer <token>';
      return jsonError(context, 401, 'unauthorized', message);
    }
    await next();
  };
}

/**
 * Refuses (403) a request whose `Origin` names another site than the server, when the Host is
 * checked (loopback binds): the MCP specification asks servers to check it, since a page's
 * script otherwise reaches a loopback server under the server's own Host.
 */
export function originCheck(allowed: () => ReadonlySet<string> | undefined): MiddlewareHandler {
  return async (context, next) => {
    const hosts = allowed();
    const origin = context.req.header('origin');
    if (hosts !== undefined && origin !== undefined && !hosts.has(originHost(origin))) {
      return jsonError(
        context,
        403,
        'forbidden_origin',
        'requests from web pages of other sites are refused',
      );
    }
    await next();
  };
}

/** The `host:port` of an Origin header ('' when it is not a URL, such as `null`). */
function originHost(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}

/** The guards of the whole app, in the order a request meets them. */
export function guard(
  app: Hono,
  options: {
    allowedHosts: () => ReadonlySet<string> | undefined;
    token: string | undefined;
    corsOrigin: string | undefined;
  },
): void {
  app.onError((_error, context) =>
    jsonError(context, 500, 'internal', 'the server failed to answer this request'),
  );
  app.notFound((context) => jsonError(context, 404, 'not_found', 'no such route'));
  app.use('*', hostCheck(options.allowedHosts));
  if (options.corsOrigin !== undefined) {
    app.use(
      '*',
      cors({
        origin: options.corsOrigin,
        allowHeaders: ['Authorization', 'Content-Type', 'Last-Event-ID', 'X-Webhook-Secret'],
        allowMethods: ['GET', 'POST'],
      }),
    );
  }
  app.use('*', limitedBody);
}

/** Past this much, an oversized body is no longer read: the connection is closed instead. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const bodies = new WeakMap<Request, string>();

/** The request's body as text, read by `limitedBody` ('' when it had none). */
export function bodyText(context: Context): string {
  return bodies.get(context.req.raw) ?? '';
}

/**
 * Reads the body before any route, at most 1 MiB. A bigger one is read to its end (up to a
 * limit) and thrown away before the 413 is sent: a client still sending its body would
 * otherwise see the connection reset instead of the answer.
 */
const limitedBody: MiddlewareHandler = async (context, next) => {
  const body = context.req.raw.body;
  if (body === null) return next();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    else if (size > DRAIN_LIMIT_BYTES) break;
  }
  if (size > MAX_BODY_BYTES) {
    return jsonError(context, 413, 'body_too_large', 'the request body is over 1 MiB');
  }
  bodies.set(context.req.raw, Buffer.concat(chunks).toString('utf8'));
  return next();
};
