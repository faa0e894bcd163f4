import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeHttpRequest } from '../../../src/tools/builtins/http-request.ts';
import { startTestServer } from './test-server.ts';
import type { TestServer } from './test-server.ts';
import { until } from '../../helpers/until.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/json', (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify({ method: request.method, query: request.url }));
  });
  server.route('/echo', (request, response) => {
    response.writeHead(201, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ body: request.body, type: request.headers['content-type'] ?? null }),
    );
  });
  server.route('/hang', () => undefined);
  server.route('/big', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('x'.repeat(5000));
  });
  for (let hop = 0; hop < 6; hop++) {
    server.route(`/hop${hop}`, (_request, response) => {
      response.writeHead(302, { location: `/hop${hop + 1}` }).end();
    });
  }
  server.route('/hop6', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('arrived');
  });
  server.route('/see-other', (_request, response) => {
    response.writeHead(303, { location: '/echo' }).end();
  });
  server.route('/cut', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('the first half');
    setTimeout(() => response.socket?.destroy(), 20);
  });
  server.route('/endless', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => response.write('y'.repeat(1000)), 5);
    response.on('close', () => {
      clearInterval(timer);
      endlessClosed = true;
    });
  });
});

/** Set once the server saw the connection of `/endless` close. */
let endlessClosed = false;

afterAll(async () => {
  await server.close();
});

describe('executeHttpRequest', () => {
  it('appends the query map to the URL, URL-encoded', async () => {
    const result = await executeHttpRequest({
      method: 'GET',
      url: `${server.url}/json?fixed=1`,
      query: { city: 'São Paulo & co', 'a/b': 'x=y' },
    });
    expect(result).toEqual({
      ok: true,
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: { method: 'GET', query: '/json?fixed=1&city=S%C3%A3o+Paulo+%26+co&a%2Fb=x%3Dy' },
      truncated: false,
      url: `${server.url}/json?fixed=1&city=S%C3%A3o+Paulo+%26+co&a%2Fb=x%3Dy`,
    });
  });

  it('sends the body as JSON with a JSON content type unless a header sets one', async () => {
    const json = await executeHttpRequest({
      method: 'POST',
      url: `${server.url}/echo`,
      body: { name: 'Lyon', tags: ['a'] },
    });
    expect(json.ok && json.body).toEqual({
      body: '{"name":"Lyon","tags":["a"]}',
      type: 'application/json',
    });
    const typed = await executeHttpRequest({
      method: 'PUT',
      url: `${server.url}/echo`,
      headers: { 'Content-Type': 'application/vnd.custom+json' },
      body: 'text',
    });
    expect(typed.ok && typed.body).toEqual({ body: '"text"', type: 'application/vnd.custom+json' });
  });

  it('follows five redirects', async () => {
    const result = await executeHttpRequest({ method: 'GET', url: `${server.url}/hop1` });
    expect(result.ok && [result.status, result.body, result.url]).toEqual([
      200,
      'arrived',
      `${server.url}/hop6`,
    ]);
  });

  it('refuses a sixth redirect', async () => {
    const result = await executeHttpRequest({ method: 'GET', url: `${server.url}/hop0` });
    expect(result).toEqual({
      ok: false,
      kind: 'too_many_redirects',
      message: `request to ${server.url}/hop0 failed: more than 5 redirects`,
    });
  });

  it('turns a POST answered with 303 into a GET without a body', async () => {
    const result = await executeHttpRequest({
      method: 'POST',
      url: `${server.url}/see-other`,
      body: { a: 1 },
    });
    expect(result.ok && result.body).toEqual({ body: '', type: null });
    expect(server.seen.at(-1)?.method).toBe('GET');
  });

  it('cuts a body at the byte cap and says so', async () => {
    const result = await executeHttpRequest({
      method: 'GET',
      url: `${server.url}/big`,
      maxBodyBytes: 1000,
    });
    expect(result.ok && [result.truncated, (result.body as string).length]).toEqual([true, 1000]);
  });

  it("sends through sortie's HTTP transport, not the global fetch", async () => {
    await executeHttpRequest({ method: 'GET', url: `${server.url}/json` });
    const { headers } = server.seen.at(-1)!;
    expect([headers['sec-fetch-mode'], headers['accept-encoding'], headers['user-agent']]).toEqual([
      undefined,
      undefined,
      'node',
    ]);
  });

  it('sees each redirect itself (the transport returns it as it came)', async () => {
    const before = server.seen.length;
    await executeHttpRequest({ method: 'GET', url: `${server.url}/hop3` });
    expect(server.seen.slice(before).map((request) => request.url)).toEqual([
      '/hop3',
      '/hop4',
      '/hop5',
      '/hop6',
    ]);
  });

  it('stops reading an endless body at the byte cap and drops its connection', async () => {
    const result = await executeHttpRequest({
      method: 'GET',
      url: `${server.url}/endless`,
      maxBodyBytes: 2500,
    });
    expect(result.ok && [result.truncated, (result.body as string).length]).toEqual([true, 2500]);
    await until('the endless connection to close', () => endlessClosed);
  });

  it('reports a body cut off mid-way as a reset connection', async () => {
    const result = await executeHttpRequest({ method: 'GET', url: `${server.url}/cut` });
    expect(result).toEqual({
      ok: false,
      kind: 'reset',
      message: `request to ${server.url}/cut failed: connection reset by the server`,
    });
  });

  it('times out with a failure naming the URL', async () => {
    const result = await executeHttpRequest({
      method: 'GET',
      url: `${server.url}/hang`,
      timeoutMs: 50,
    });
    expect(result).toEqual({
      ok: false,
      kind: 'timeout',
      message: `request to ${server.url}/hang failed: timed out after 0.1 s`,
    });
  });

  it('reports an aborted request as aborted', async () => {
    const controller = new AbortController();
    const pending = executeHttpRequest({
      method: 'GET',
      url: `${server.url}/hang`,
      signal: controller.signal,
    });
    controller.abort();
    expect(await pending).toEqual({
      ok: false,
      kind: 'aborted',
      message: `request to ${server.url}/hang failed: aborted`,
    });
  });

  it.each(['a\r\nX-Injected: 1', 'trailing\n', 'a\rb'])(
    'refuses a header value with CR or LF (%j) before sending anything',
    async (value) => {
      const before = server.seen.length;
      expect(
        await executeHttpRequest({
          method: 'GET',
          url: `${server.url}/json`,
          headers: { 'X-Note': value },
        }),
      ).toEqual({
        ok: false,
        kind: 'invalid_request',
        message: `request to ${server.url}/json failed: the header "X-Note" contains a line break (CR or LF); header values must be one line`,
      });
      expect(server.seen.length).toBe(before);
    },
  );

  it('rejects an invalid header before sending anything', async () => {
    const before = server.seen.length;
    const result = await executeHttpRequest({
      method: 'GET',
      url: `${server.url}/json`,
      headers: { 'bad header': 'x' },
    });
    expect(result.ok === false && result.kind).toBe('invalid_request');
    expect(server.seen.length).toBe(before);
  });
});
