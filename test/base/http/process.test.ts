/**
 * The transport in a process: its idle keep-alive connections never keep a process alive, and
 * `sdkFetch` sends what the transport does not through the global fetch.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDispatchers } from '../../../src/base/http/dispatchers.ts';
import { sdkFetch, TransportResponse } from '../../../src/base/http/index.ts';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts';
import { until } from '../../helpers/until.ts';

const ONE_REQUEST = fileURLToPath(new URL('../../fixtures/http/one-request.ts', import.meta.url));
const DROP_RESPONSE = fileURLToPath(
  new URL('../../fixtures/http/drop-response.ts', import.meta.url),
);

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/endless', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    const timer = setInterval(() => response.write('z'.repeat(16_384)), 5);
    response.on('close', () => clearInterval(timer));
  });
  server.route('/hello', (request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end(`hello ${request.headers['content-type'] ?? 'nobody'}`);
  });
});

afterAll(() => server.close());

describe('the transport in a process', () => {
  it("loads the three undici modules it uses, not undici's entry", async () => {
    expect((await loadDispatchers()).loadedFrom).toBe('parts');
  });

  it('lets a process exit with its connection idle and kept alive by the server', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', ONE_REQUEST, `${server.origin}/hello`],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = once(child, 'exit');
    const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
    const answered = Date.now();
    const [code] = (await exited) as [number];
    // The server keeps the connection for 5 s and undici for 4 s: a referenced socket would
    // hold the process that long.
    expect([line, code, Date.now() - answered < 2000]).toEqual(['200 hello nobody', 0, true]);
    const request = server.requests.at(-1)!;
    expect(request.url).toBe('/hello');
    await server.closed(request);
  });

  it('cancels the body of a response dropped unread once the response is collected', async () => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', DROP_RESPONSE, `${server.origin}/endless`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    const done = once(createInterface({ input: child.stdout }), 'line').then(() => 'done');
    await until('the request for /endless', () => server.requests.at(-1)?.url === '/endless');
    const closed = server.closed(server.requests.at(-1)!).then(() => 'closed');
    // Without the cancel, the connection would stay open until the child exits after `done`.
    expect(await Promise.race([closed, done])).toBe('closed');
    expect(await exited).toEqual([0, null]);
  });
});

describe('sdkFetch', () => {
  it('sends a string body itself', async () => {
    const response = await sdkFetch(`${server.origin}/hello`, { method: 'POST', body: 'words' });
    expect([response instanceof TransportResponse, await response.text()]).toEqual([
      true,
      'hello text/plain;charset=UTF-8',
    ]);
    expect(server.requests.at(-1)!.headers['sec-fetch-mode']).toBe(undefined);
  });

  it('sends a FormData body, a Request and a data: URL through the global fetch', async () => {
    const form = new FormData();
    form.set('field', 'value');
    const posted = await sdkFetch(`${server.origin}/hello`, { method: 'POST', body: form });
    expect([posted instanceof Response, (await posted.text()).split(';')[0]]).toEqual([
      true,
      'hello multipart/form-data',
    ]);
    expect(server.requests.at(-1)!.headers['sec-fetch-mode']).toBe('cors');
    const requested = await sdkFetch(new Request(`${server.origin}/hello`));
    expect([requested instanceof Response, await requested.text()]).toEqual([true, 'hello nobody']);
    expect(server.requests.at(-1)!.headers['sec-fetch-mode']).toBe('cors');
    expect(await (await sdkFetch('data:text/plain,inline')).text()).toBe('inline');
  });
});
