import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import {
  bearerToken,
  guard,
  isLoopback,
  loopbackHosts,
  originCheck,
  sameSecret,
} from '../../src/serve/http/guards.ts';

/** An app with the guards of a loopback server on port 7700 and one route. */
function app(token?: string): Hono {
  const routes = new Hono();
  guard(routes, { allowedHosts: () => loopbackHosts(7700), token, corsOrigin: undefined });
  if (token !== undefined) routes.use('*', bearerToken(token));
  routes.get('/ok', (context) => context.json({ ok: true }));
  routes.get('/boom', () => {
    throw new Error('secret stack detail');
  });
  return routes;
}

describe('the guards of sortie serve', () => {
  it('answers only a Host naming the server itself on a loopback bind', async () => {
    const statuses = await Promise.all(
      [
        '127.0.0.1:7700',
        'localhost:7700',
        '[::1]:7700',
        'attacker.example:7700',
        '127.0.0.1:80',
      ].map(async (host) => (await app().request('/ok', { headers: { host } })).status),
    );
    expect(statuses).toEqual([200, 200, 200, 403, 403]);
  });

  it('asks every request for the bearer token when one is set', async () => {
    const guarded = app('t0ken');
    const host = '127.0.0.1:7700';
    const ask = async (authorization?: string) =>
      (
        await guarded.request('/ok', {
          headers: { host, ...(authorization === undefined ? {} : { authorization }) },
        })
      ).status;
    expect([
      await ask(),
      await ask('Bearer nope'),
      await ask('t0ken'),
      await ask('Bearer t0ken'),
    ]).toEqual([401, 401, 401, 200]);
  });

  it('takes the token from ?token= only where asked to (the MCP endpoint), never on the API', async () => {
    const host = '127.0.0.1:7700';
    const byQuery = new Hono();
    byQuery.use('*', bearerToken('t0ken', { query: true, message: 'send the secret' }));
    byQuery.get('/ok', (context) => context.json({ ok: true }));
    const refused = await byQuery.request('/ok?token=nope', { headers: { host } });
    expect([refused.status, await refused.json()]).toEqual([
      401,
      { error: { code: 'unauthorized', message: 'send the secret' } },
    ]);
    expect((await byQuery.request('/ok?token=t0ken', { headers: { host } })).status).toBe(200);
    expect((await app('t0ken').request('/ok?token=t0ken', { headers: { host } })).status).toBe(401);
  });

  it('refuses an Origin other than the server itself on a loopback bind', async () => {
    const checked = new Hono();
    checked.use(
      '*',
      originCheck(() => loopbackHosts(7700)),
    );
    checked.get('/ok', (context) => context.json({ ok: true }));
    const statuses = await Promise.all(
      [
        undefined,
        'http://127.0.0.1:7700',
        'http://localhost:7700',
        'http://evil.example',
        'null',
      ].map(
        async (origin) =>
          (await checked.request('/ok', { headers: origin === undefined ? {} : { origin } }))
            .status,
      ),
    );
    expect(statuses).toEqual([200, 200, 200, 403, 403]);
  });

  it('answers a failure and an unknown route with JSON, never the error itself', async () => {
    const failed = await app().request('/boom', { headers: { host: 'localhost:7700' } });
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({
      error: { code: 'internal', message: 'the server failed to answer this request' },
    });
    const missing = await app().request('/nope', { headers: { host: 'localhost:7700' } });
    expect(await missing.json()).toEqual({
      error: { code: 'not_found', message: 'no such route' },
    });
  });

  it('compares secrets of any length, and knows loopback addresses', () => {
    expect([sameSecret('abc', 'abc'), sameSecret('abc', 'abcd'), sameSecret('', 'x')]).toEqual([
      true,
      false,
      false,
    ]);
    expect(
      ['127.0.0.1', '127.1.2.3', '::1', 'localhost', '0.0.0.0', '10.0.0.1'].map(isLoopback),
    ).toEqual([true, true, true, true, false, false]);
  });
});
