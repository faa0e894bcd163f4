/**
 * MCP servers reached by URL, written with the SDK's server side in this process: Streamable
 * HTTP, and the legacy SSE transport when the path ends in `/sse`. Headers go with every
 * request; a server that wants authorization gets a message saying how to give a token.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  startSseServer,
  startStreamableServer,
  type TestHttpServer,
} from '../../fixtures/mcp/http-servers.ts';
import { cleanUp, onCleanUp, openPool } from './mcp-harness.ts';

afterEach(cleanUp);

const signal = new AbortController().signal;

async function started(server: Promise<TestHttpServer>): Promise<TestHttpServer> {
  const running = await server;
  onCleanUp(() => running.close());
  return running;
}

describe('MCP servers over HTTP', () => {
  it('calls tools over Streamable HTTP with the headers on every request', async () => {
    const server = await started(startStreamableServer({ authorization: 'Bearer s3cret-token' }));
    const pool = await openPool([
      {
        kind: 'url',
        name: 'remote',
        url: server.url,
        headers: { Authorization: 'Bearer s3cret-token', 'X-Team': 'blue' },
      },
    ]);
    const [echo, header] = await pool.toolsFor(
      [
        { server: 'remote', tool: 'echo' },
        { server: 'remote', tool: 'header' },
      ],
      signal,
    );
    expect(await echo!.execute({ text: 'over http' }, { signal })).toEqual({
      content: 'over http',
      isError: false,
    });
    expect((await header!.execute({ name: 'x-team' }, { signal })).content).toBe('blue');
    expect(server.received.length).toBeGreaterThanOrEqual(3);
    expect(server.received.every((headers) => headers['x-team'] === 'blue')).toBe(true);
  });

  it('uses the SSE transport when the path ends in /sse', async () => {
    const server = await started(startSseServer());
    const pool = await openPool([
      { kind: 'url', name: 'legacy', url: server.url, headers: { 'X-Team': 'red' } },
    ]);
    const [echo] = await pool.toolsFor([{ server: 'legacy', tool: 'echo' }], signal);
    expect(await echo!.execute({ text: 'over sse' }, { signal })).toEqual({
      content: 'over sse',
      isError: false,
    });
    expect(server.received[0]!.accept).toBe('text/event-stream');
    expect(server.received.every((headers) => headers['x-team'] === 'red')).toBe(true);
  });

  it('tells how to log in or give a token when the server answers 401', async () => {
    const server = await started(startStreamableServer({ authorization: 'Bearer right' }));
    const pool = await openPool([{ kind: 'url', name: 'remote', url: server.url, headers: {} }]);
    await expect(pool.toolsFor([{ server: 'remote' }], signal)).rejects.toThrow(
      `mcp "remote": the server at ${server.url} refused the request (HTTP 401): log in with ` +
        '`sortie mcp login remote`, or give a token in headers, e.g. headers = { Authorization = "Bearer ${vars.token}" } with a secret variable',
    );
  });

  it('names the URL it could not connect to', async () => {
    const server = await started(startStreamableServer());
    await server.close();
    const pool = await openPool([{ kind: 'url', name: 'gone', url: server.url, headers: {} }]);
    const port = new URL(server.url).port;
    await expect(pool.toolsFor([{ server: 'gone' }], signal)).rejects.toThrow(
      `mcp "gone": could not connect to ${server.url}: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
