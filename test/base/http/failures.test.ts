/**
 * How the transport fails, next to how the global fetch fails on the same server: a refused
 * connection, a reset before the answer, a body cut in the middle, aborts at each point. What
 * classifies fetch's failures (the SDKs, `classifyNetworkError`) reads the error's class, its
 * message and its cause's code, so those are what must match.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transportFetch } from '../../../src/base/http/index.ts';
import { classifyNetworkError } from '../../../src/models/http-retry.ts';
import {
  closedPort,
  rejectionOf,
  startLoopbackServer,
  type LoopbackServer,
} from './loopback-server.ts';
import { until } from '../../helpers/until.ts';

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/reset', (_request, response) => response.socket?.destroy());
  server.route('/cut', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('the first half');
    setTimeout(() => response.socket?.destroy(), 20);
  });
  server.route('/short', (_request, response) => {
    // Promises 100 bytes, sends 5, then closes.
    response.writeHead(200, { 'content-length': '100' });
    response.write('short');
    setTimeout(() => response.socket?.destroy(), 20);
  });
  server.route('/hang', () => undefined);
  server.route('/not-gzip', (_request, response) => {
    response.writeHead(200, { 'content-encoding': 'gzip' }).end('this is not gzip at all');
  });
  server.route('/trickle', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('one');
  });
});

afterAll(() => server.close());

/** Reads the whole body of what `request` answers. */
async function readAll(request: Promise<{ text(): Promise<string> }>): Promise<string> {
  return (await request).text();
}

describe('transportFetch: failures as fetch has them', () => {
  it('rejects a refused connection with TypeError("fetch failed") caused by ECONNREFUSED', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/`;
    const mine = await rejectionOf(transportFetch(url));
    expect(mine).toEqual({ name: 'TypeError', message: 'fetch failed', cause: 'ECONNREFUSED' });
    expect(mine).toEqual(await rejectionOf(fetch(url)));
  });

  it('rejects a connection reset before the answer as fetch does', async () => {
    const url = `${server.origin}/reset`;
    const mine = await rejectionOf(transportFetch(url));
    expect(mine).toEqual({ name: 'TypeError', message: 'fetch failed', cause: 'UND_ERR_SOCKET' });
    expect(mine).toEqual(await rejectionOf(fetch(url)));
  });

  it.each(['/cut', '/short'])(
    'errors a body that breaks off (%s) with TypeError("terminated") caused by undici',
    async (path) => {
      const url = `${server.origin}${path}`;
      const mine = await rejectionOf(readAll(transportFetch(url)));
      expect(mine).toEqual({ name: 'TypeError', message: 'terminated', cause: 'UND_ERR_SOCKET' });
      expect(mine).toEqual(await rejectionOf(readAll(fetch(url))));
    },
  );

  it('errors a body that does not decode as fetch does', async () => {
    const url = `${server.origin}/not-gzip`;
    const mine = await rejectionOf(readAll(transportFetch(url)));
    expect(mine).toEqual({ name: 'TypeError', message: 'terminated', cause: 'Z_DATA_ERROR' });
    expect(mine).toEqual(await rejectionOf(readAll(fetch(url))));
  });

  it('gives errors that classifyNetworkError reads as it reads fetch’s', async () => {
    const refused = `http://127.0.0.1:${await closedPort()}/`;
    const cut = `${server.origin}/cut`;
    const classify = async (promise: Promise<unknown>) =>
      classifyNetworkError(await promise.catch((error: unknown) => error))?.kind;
    expect([
      await classify(transportFetch(refused)),
      await classify(readAll(transportFetch(cut))),
    ]).toEqual(['connection_refused', 'connection_reset']);
  });
});

describe('transportFetch: aborts', () => {
  it("rejects with the signal's reason when the signal had aborted already, sending nothing", async () => {
    const before = server.requests.length;
    const reason = new Error('cancelled first');
    const signal = AbortSignal.abort(reason);
    await expect(transportFetch(`${server.origin}/hang`, { signal })).rejects.toBe(reason);
    expect(server.requests.length).toBe(before);
  });

  it("rejects with the signal's reason while waiting for the answer", async () => {
    const controller = new AbortController();
    const pending = transportFetch(`${server.origin}/hang`, { signal: controller.signal });
    while (server.requests.at(-1)?.url !== '/hang') await new Promise((r) => setImmediate(r));
    const reason = new Error('cancelled while waiting');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it("errors the body with the signal's reason mid-body and closes the connection", async () => {
    const controller = new AbortController();
    const response = await transportFetch(`${server.origin}/trickle`, {
      signal: controller.signal,
    });
    const chunks = response.body![Symbol.asyncIterator]();
    expect(new TextDecoder().decode((await chunks.next()).value)).toBe('one');
    controller.abort();
    const mine = await chunks.next().catch((error: unknown) => error);
    expect([(mine as Error).name, mine]).toEqual(['AbortError', controller.signal.reason]);
    await server.closed(server.requests.at(-1)!);
  });

  it("gives fetch's AbortError when a signal aborts without a reason", async () => {
    const hanging = () => server.requests.filter((request) => request.url === '/hang').length;
    const before = hanging();
    const controller = new AbortController();
    const mine = transportFetch(`${server.origin}/hang`, { signal: controller.signal });
    const theirs = fetch(`${server.origin}/hang`, { signal: controller.signal });
    await until('both requests', () => hanging() >= before + 2, { pauseMs: 0 });
    controller.abort();
    expect(await rejectionOf(mine)).toEqual(await rejectionOf(theirs));
    expect((await rejectionOf(mine)).name).toBe('AbortError');
  });
});
