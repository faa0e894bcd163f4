/**
 * sortie's HTTP transport against a real loopback server: the requests it sends (fetch's
 * defaults, headers in each form, bodies and their content types, methods), the responses it
 * returns, and redirects followed, returned or refused as fetch does. Where fetch itself
 * decides, the test asks the global fetch the same question and expects the same answer.
 */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransportUnsupportedError, transportFetch } from '../../../src/base/http/index.ts';
import { rejectionOf, startLoopbackServer, type LoopbackServer } from './loopback-server.ts';

let server: LoopbackServer;
let other: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer();
  other = await startLoopbackServer();
  server.route('/echo', (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ method: request.method, body: request.body }));
  });
  server.route('/cookies', (_request, response) => {
    response.writeHead(201, 'Made', { 'set-cookie': ['a=1', 'b=2'], 'x-note': 'kept' });
    response.end('made');
  });
  server.route('/bom', (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"text":"é"}')]));
  });
  server.route('/empty', (_request, response) => response.writeHead(204).end());
  const compressed: Record<string, Buffer> = {
    gzip: gzipSync('packed with gzip'),
    deflate: deflateSync('packed with deflate'),
    'raw deflate': deflateRawSync('packed with raw deflate'),
    br: brotliCompressSync('packed with br'),
  };
  server.route('/packed', (_request, response) => {
    const coding = new URL(`${server.origin}${_request.url}`).searchParams.get('coding')!;
    const header = coding === 'raw deflate' ? 'deflate' : coding;
    response.writeHead(200, { 'content-encoding': header, 'content-type': 'text/plain' });
    response.end(compressed[coding]);
  });
  for (let hop = 0; hop <= 21; hop++) {
    server.route(`/chain/${hop}`, (request, response) => {
      const left = Number(new URL(`${server.origin}${request.url}`).searchParams.get('left'));
      if (left === 0) response.writeHead(200).end(`arrived after ${hop}`);
      else response.writeHead(302, { location: `/chain/${hop + 1}?left=${left - 1}` }).end();
    });
  }
  for (const status of [301, 302, 303, 307, 308]) {
    server.route(`/moved/${status}`, (_request, response) => {
      response.writeHead(status, { location: '/echo' }).end('moved');
    });
  }
  server.route('/headers', (request, response) => response.end(JSON.stringify(request.headers)));
  server.route('/to-headers', (_request, response) => {
    response.writeHead(302, { location: '/headers' }).end();
  });
  server.route('/choices', (_request, response) => {
    response.writeHead(300, { location: '/echo' }).end('choose');
  });
  server.route('/nowhere', (_request, response) => response.writeHead(302).end('no location'));
  server.route('/to-ftp', (_request, response) => {
    response.writeHead(301, { location: 'ftp://127.0.0.1/file' }).end();
  });
  server.route('/away', (_request, response) => {
    response.writeHead(302, { location: `${other.origin}/headers` }).end();
  });
  other.route('/headers', (request, response) => response.end(JSON.stringify(request.headers)));
});

afterAll(async () => {
  await Promise.all([server.close(), other.close()]);
});

const last = () => server.requests.at(-1)!;

describe('transportFetch: what it sends', () => {
  it("sends fetch's default headers, and neither accept-encoding nor sec-fetch-mode", async () => {
    await (await transportFetch(`${server.origin}/echo`)).text();
    const sent = last().headers;
    await (await fetch(`${server.origin}/echo`)).text();
    const fetched = last().headers;
    expect([sent.accept, sent['accept-language'], sent['user-agent']]).toEqual([
      '*/*',
      '*',
      'node',
    ]);
    expect([sent['accept-encoding'], sent['sec-fetch-mode']]).toEqual([undefined, undefined]);
    // What tells the global fetch's requests apart (the tests of the SDKs rely on it).
    expect([fetched['accept-encoding'], fetched['sec-fetch-mode']]).toEqual([
      'gzip, deflate',
      'cors',
    ]);
  });

  it.each([
    ['a Headers', new Headers({ 'X-One': '1', 'User-Agent': 'mine' })],
    ['a record', { 'X-One': '1', 'User-Agent': 'mine' }],
    [
      'an array of pairs',
      [
        ['X-One', '1'],
        ['User-Agent', 'mine'],
      ] as [string, string][],
    ],
  ])("sends the caller's headers given as %s, in place of the defaults", async (_form, headers) => {
    await (await transportFetch(`${server.origin}/echo`, { headers })).text();
    expect([last().headers['x-one'], last().headers['user-agent']]).toEqual(['1', 'mine']);
  });

  it('refuses a bad header name as fetch does, before sending anything', async () => {
    const before = server.requests.length;
    const headers = { 'bad name': 'x' };
    const mine = await rejectionOf(transportFetch(`${server.origin}/echo`, { headers }));
    expect(mine).toEqual(await rejectionOf(fetch(`${server.origin}/echo`, { headers })));
    expect(mine.name).toBe('TypeError');
    expect(server.requests.length).toBe(before);
  });

  it.each([
    ['a string', 'plain words', 'text/plain;charset=UTF-8', 'plain words'],
    [
      'a URLSearchParams',
      new URLSearchParams({ a: '1 2' }),
      'application/x-www-form-urlencoded;charset=UTF-8',
      'a=1+2',
    ],
    ['a Uint8Array', new TextEncoder().encode('bytes'), undefined, 'bytes'],
    ['an ArrayBuffer', new TextEncoder().encode('buffer').buffer, undefined, 'buffer'],
  ])('sends %s body with the content type fetch gives it', async (_kind, body, type, text) => {
    await (await transportFetch(`${server.origin}/echo`, { method: 'POST', body })).text();
    const sent = { type: last().headers['content-type'], body: last().body };
    await (await fetch(`${server.origin}/echo`, { method: 'POST', body })).text();
    expect(sent).toEqual({ type, body: text });
    expect(sent).toEqual({ type: last().headers['content-type'], body: last().body });
  });

  it("keeps a content type the caller's headers set", async () => {
    const headers = { 'content-type': 'application/json' };
    await (
      await transportFetch(`${server.origin}/echo`, { method: 'POST', headers, body: '{}' })
    ).text();
    expect(last().headers['content-type']).toBe('application/json');
  });

  it('sends the bytes a body held when it was called', async () => {
    const bytes = new TextEncoder().encode('before');
    const pending = transportFetch(`${server.origin}/echo`, { method: 'PUT', body: bytes });
    bytes.set(new TextEncoder().encode('after!'));
    expect(await (await pending).json()).toEqual({ method: 'PUT', body: 'before' });
  });

  it('upper-cases the methods fetch upper-cases', async () => {
    const response = await transportFetch(`${server.origin}/echo`, { method: 'delete' });
    expect(await response.json()).toEqual({ method: 'DELETE', body: '' });
  });

  it.each([
    ['a GET with a body', '/echo', { body: 'x' }],
    ['a HEAD with a body', '/echo', { method: 'HEAD', body: 'x' }],
    ['a CONNECT', '/echo', { method: 'CONNECT' }],
    ['a method that is no token', '/echo', { method: 'GE T' }],
    ['a redirect mode fetch does not know', '/echo', { redirect: 'sometimes' as 'follow' }],
  ])('rejects %s as fetch does, sending nothing', async (_case, path, init) => {
    const before = server.requests.length;
    const mine = await rejectionOf(transportFetch(`${server.origin}${path}`, init));
    const theirs = await rejectionOf(fetch(`${server.origin}${path}`, init as RequestInit));
    expect(mine.name).toBe('TypeError');
    expect(server.requests.length).toBe(before);
    // fetch words the unknown redirect mode in its own way.
    if (!('redirect' in init)) expect(mine).toEqual(theirs);
  });

  it('rejects a URL with credentials and a bad port as fetch does', async () => {
    const port = new URL(server.origin).port;
    for (const url of [`http://user:secret@127.0.0.1:${port}/echo`, 'http://127.0.0.1:25/']) {
      expect(await rejectionOf(transportFetch(url))).toEqual(await rejectionOf(fetch(url)));
    }
    expect(await rejectionOf(transportFetch('http://127.0.0.1:25/'))).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      cause: 'bad port',
    });
  });

  it('leaves a URL scheme other than http(s) to the global fetch, saying so', async () => {
    const error = await transportFetch('data:text/plain,hi').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TransportUnsupportedError);
    expect((error as TransportUnsupportedError).feature).toBe('data: URLs');
  });
});

describe('transportFetch: what it returns', () => {
  it('gives the status, its text, ok, the URL without its fragment, and every header', async () => {
    const response = await transportFetch(`${server.origin}/cookies#part`);
    expect({
      status: response.status,
      statusText: response.statusText,
      ok: response.ok,
      url: response.url,
      redirected: response.redirected,
      type: response.type,
      headers: response.headers instanceof Headers,
      cookies: response.headers.getSetCookie(),
      note: response.headers.get('x-note'),
      text: await response.text(),
    }).toEqual({
      status: 201,
      statusText: 'Made',
      ok: true,
      url: `${server.origin}/cookies`,
      redirected: false,
      type: 'basic',
      headers: true,
      cookies: ['a=1', 'b=2'],
      note: 'kept',
      text: 'made',
    });
  });

  it('reads a body as text and JSON (a byte-order mark dropped), bytes, an ArrayBuffer or a Blob', async () => {
    const read = (path: string) => transportFetch(`${server.origin}${path}`);
    expect(await (await read('/bom')).json()).toEqual({ text: 'é' });
    expect(await (await read('/bom')).text()).toBe('{"text":"é"}');
    const bytes = await (await read('/cookies')).bytes();
    expect([bytes.constructor.name, [...bytes]]).toEqual(['Uint8Array', [109, 97, 100, 101]]);
    const buffer = await (await read('/cookies')).arrayBuffer();
    expect([buffer.byteLength, new TextDecoder().decode(buffer)]).toEqual([4, 'made']);
    const blob = await (await read('/bom')).blob();
    expect([blob.type, blob.size]).toEqual(['application/json', 16]);
  });

  it('refuses to read a body twice, as fetch does', async () => {
    const response = await transportFetch(`${server.origin}/cookies`);
    expect(response.bodyUsed).toBe(false);
    await response.text();
    expect(response.bodyUsed).toBe(true);
    const theirs = await fetch(`${server.origin}/cookies`);
    await theirs.text();
    expect(await rejectionOf(response.text())).toEqual(await rejectionOf(theirs.text()));
  });

  it('has no body for a HEAD request or a 204', async () => {
    const head = await transportFetch(`${server.origin}/cookies`, { method: 'HEAD' });
    const empty = await transportFetch(`${server.origin}/empty`);
    expect([head.status, head.body, await head.text()]).toEqual([201, null, '']);
    expect([empty.status, empty.body, await empty.text()]).toEqual([204, null, '']);
  });

  it.each(['gzip', 'deflate', 'raw deflate', 'br'])(
    'decodes a body the server sent with %s unasked, as fetch does',
    async (coding) => {
      const url = `${server.origin}/packed?coding=${encodeURIComponent(coding)}`;
      const text = await (await transportFetch(url)).text();
      expect(text).toBe(`packed with ${coding}`);
      expect(text).toBe(await (await fetch(url)).text());
    },
  );

  it('says formData() and clone() are not supported', async () => {
    const response = await transportFetch(`${server.origin}/cookies`);
    await expect(response.formData()).rejects.toBeInstanceOf(TransportUnsupportedError);
    expect(() => response.clone()).toThrow("sortie's HTTP transport does not support clone()");
    await response.text();
  });
});

describe('transportFetch: redirects', () => {
  it.each([
    [301, 'POST', 'GET', ''],
    [302, 'POST', 'GET', ''],
    [303, 'PUT', 'GET', ''],
    [307, 'POST', 'POST', 'kept'],
    [308, 'PUT', 'PUT', 'kept'],
  ])('follows a %i after a %s with a %s, as fetch does', async (status, method, then, body) => {
    const response = await transportFetch(`${server.origin}/moved/${status}`, {
      method,
      body: 'kept',
    });
    const mine = {
      url: response.url,
      redirected: response.redirected,
      echo: await response.json(),
    };
    expect(mine).toEqual({
      url: `${server.origin}/echo`,
      redirected: true,
      echo: { method: then, body },
    });
    const theirs = await fetch(`${server.origin}/moved/${status}`, { method, body: 'kept' });
    expect(await theirs.json()).toEqual(mine.echo);
  });

  it('drops credentials when a redirect leaves the origin, as fetch does', async () => {
    const headers = { authorization: 'Bearer secret', cookie: 'a=1', 'x-kept': 'yes' };
    const seen = async (answer: Promise<{ json(): Promise<unknown> }>) => {
      const sent = (await (await answer).json()) as Record<string, string>;
      return [sent.authorization, sent.cookie, sent['x-kept']];
    };
    const mine = await seen(transportFetch(`${server.origin}/away`, { headers }));
    expect(mine).toEqual([undefined, undefined, 'yes']);
    expect(mine).toEqual(await seen(fetch(`${server.origin}/away`, { headers })));
    const same = await seen(transportFetch(`${server.origin}/to-headers`, { headers }));
    expect(same).toEqual(['Bearer secret', 'a=1', 'yes']);
  });

  it('drops the content headers with the body when a POST becomes a GET, as fetch does', async () => {
    const init = {
      method: 'POST',
      body: 'gone',
      headers: { 'content-type': 'application/json', 'content-language': 'fr', 'x-kept': 'yes' },
    };
    const seen = async (answer: Promise<{ json(): Promise<unknown> }>) => {
      const sent = (await (await answer).json()) as Record<string, string>;
      return [
        sent['content-type'],
        sent['content-language'],
        sent['content-length'],
        sent['x-kept'],
      ];
    };
    const mine = await seen(transportFetch(`${server.origin}/to-headers`, init));
    expect(mine).toEqual([undefined, undefined, undefined, 'yes']);
    expect(mine).toEqual(await seen(fetch(`${server.origin}/to-headers`, init)));
  });

  it('returns a 300 and a redirect without a location as they came, as fetch does', async () => {
    const choices = await transportFetch(`${server.origin}/choices`);
    const nowhere = await transportFetch(`${server.origin}/nowhere`);
    expect([choices.status, choices.redirected, await choices.text()]).toEqual([
      300,
      false,
      'choose',
    ]);
    expect([nowhere.status, await nowhere.text()]).toEqual([302, 'no location']);
  });

  it('refuses a redirect to a scheme other than http(s), as fetch does', async () => {
    const url = `${server.origin}/to-ftp`;
    const mine = await rejectionOf(transportFetch(url));
    expect(mine).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      cause: 'URL scheme must be a HTTP(S) scheme',
    });
    expect(mine).toEqual(await rejectionOf(fetch(url)));
  });

  it('follows 20 redirects and fails at the 21st, as fetch does', async () => {
    const twenty = await transportFetch(`${server.origin}/chain/0?left=20`);
    expect([twenty.status, twenty.url, await twenty.text()]).toEqual([
      200,
      `${server.origin}/chain/20?left=0`,
      'arrived after 20',
    ]);
    const url = `${server.origin}/chain/0?left=21`;
    const mine = await rejectionOf(transportFetch(url));
    expect(mine).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      cause: 'redirect count exceeded',
    });
    expect(mine).toEqual(await rejectionOf(fetch(url)));
  });

  it("returns a redirect as it came with redirect: 'manual'", async () => {
    const response = await transportFetch(`${server.origin}/moved/302`, { redirect: 'manual' });
    expect([
      response.status,
      response.headers.get('location'),
      response.url,
      response.redirected,
      await response.text(),
    ]).toEqual([302, '/echo', `${server.origin}/moved/302`, false, 'moved']);
  });

  it("fails on a redirect with redirect: 'error', as fetch does", async () => {
    const url = `${server.origin}/moved/307`;
    const mine = await rejectionOf(transportFetch(url, { redirect: 'error' }));
    expect(mine).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      cause: 'unexpected redirect',
    });
    expect(mine).toEqual(await rejectionOf(fetch(url, { redirect: 'error' })));
  });
});
