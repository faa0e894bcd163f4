import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomHttpTool } from '../../../src/tools/builtins/custom-http-tool.ts';
import {
  httpDeleteTool,
  httpGetTool,
  httpPatchTool,
  httpPostTool,
} from '../../../src/tools/builtins/http-tools.ts';
import { defineTool } from '../../../src/tools/define-tool.ts';
import { callTool, parsed } from './call-tool.ts';
import { startTestServer } from './test-server.ts';
import type { TestServer } from './test-server.ts';
import { closedPort } from '../../fixtures/closed-port.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/cities', (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify([{ name: 'Lyon', auth: request.headers.authorization ?? null }]));
  });
  server.route('/text', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('plain words');
  });
  server.route('/missing', (_request, response) => {
    response.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"nope"}');
  });
  server.route('/echo', (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        method: request.method,
        url: request.url,
        body: request.body,
        type: request.headers['content-type'] ?? null,
        key: request.headers['x-api-key'] ?? null,
      }),
    );
  });
  server.route('/to-ftp', (_request, response) => {
    response.writeHead(302, { location: 'ftp://127.0.0.1/file' }).end();
  });
  server.route('/huge', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('y'.repeat(5 * 1024 * 1024 + 10));
  });
  server.route('/image', (_request, response) => {
    response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50, 0x4e]));
  });
});

afterAll(async () => {
  await server.close();
});

describe('builtins_http_* tools', () => {
  it('returns a JSON body parsed, with the HTTP status and content type', async () => {
    const outcome = await callTool(httpGetTool, {
      url: `${server.url}/cities`,
      headers: { Authorization: 'Bearer t0k' },
    });
    expect(outcome).toEqual({
      content:
        '{"status":200,"content_type":"application/json","body":[{"name":"Lyon","auth":"Bearer t0k"}]}',
      isError: false,
      payload: {
        text: '[{"name":"Lyon","auth":"Bearer t0k"}]',
        beside: { http_status: 200, content_type: 'application/json' },
      },
    });
  });

  it('returns a text body as text', async () => {
    const outcome = await callTool(httpGetTool, { url: `${server.url}/text` });
    expect(parsed(outcome)).toEqual({
      status: 200,
      content_type: 'text/plain; charset=utf-8',
      body: 'plain words',
    });
  });

  it('passes an HTTP error status to the model as a normal result', async () => {
    const outcome = await callTool(httpGetTool, { url: `${server.url}/missing` });
    expect(outcome).toEqual({
      content: '{"status":404,"content_type":"application/json","body":{"detail":"nope"}}',
      isError: false,
      payload: {
        text: '{"detail":"nope"}',
        beside: { http_status: 404, content_type: 'application/json' },
      },
    });
  });

  it('sends an object body as JSON and a string body as is', async () => {
    const json = parsed(
      await callTool(httpPostTool, { url: `${server.url}/echo`, body: { a: [1, 2] } }),
    ) as { body: Record<string, unknown> };
    expect(json.body).toEqual({
      method: 'POST',
      url: '/echo',
      body: '{"a":[1,2]}',
      type: 'application/json',
      key: null,
    });
    const text = parsed(
      await callTool(httpPatchTool, {
        url: `${server.url}/echo`,
        body: 'a=1&b=2',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ) as { body: Record<string, unknown> };
    expect(text.body.body).toBe('a=1&b=2');
    expect(text.body.type).toBe('application/x-www-form-urlencoded');
  });

  it('sends DELETE without a body', async () => {
    const outcome = parsed(await callTool(httpDeleteTool, { url: `${server.url}/echo` })) as {
      body: Record<string, unknown>;
    };
    expect([outcome.body.method, outcome.body.body]).toEqual(['DELETE', '']);
  });

  it('describes a binary body instead of returning its bytes', async () => {
    const outcome = parsed(await callTool(httpGetTool, { url: `${server.url}/image` }));
    expect(outcome).toEqual({
      status: 200,
      content_type: 'image/png',
      body: '<binary body: 3 bytes of image/png>',
    });
  });

  it('cuts a body over 5 MB and says so', async () => {
    const outcome = parsed(await callTool(httpGetTool, { url: `${server.url}/huge` })) as Record<
      string,
      unknown
    >;
    expect((outcome.body as string).length).toBe(5 * 1024 * 1024);
    expect([outcome.truncated, outcome.note]).toEqual([
      true,
      'the body was over 5 MB and was cut there',
    ]);
  });

  it('refuses a redirect to a non-http scheme', async () => {
    const outcome = await callTool(httpGetTool, { url: `${server.url}/to-ftp` });
    expect(outcome).toEqual({
      content: JSON.stringify({
        status: 'error',
        error: `request to ${server.url}/to-ftp failed: redirect to a non-http(s) URL refused: ftp://127.0.0.1/file`,
      }),
      isError: true,
    });
  });

  it('refuses a URL that is not http(s)', async () => {
    const outcome = await callTool(httpGetTool, { url: 'file:///etc/passwd' });
    expect(outcome).toEqual({
      content:
        '{"status":"error","error":"request to file:///etc/passwd failed: only http and https URLs are allowed"}',
      isError: true,
    });
  });

  it('refuses a relative URL', async () => {
    const outcome = await callTool(httpGetTool, { url: '/cities' });
    expect(parsed(outcome)).toEqual({
      status: 'error',
      error: 'request to /cities failed: not a valid absolute URL',
    });
  });

  it('reports a refused connection as an error result naming the URL', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/x`;
    const outcome = await callTool(httpGetTool, { url });
    expect(outcome).toEqual({
      content: JSON.stringify({
        status: 'error',
        error: `request to ${url} failed: connection refused`,
      }),
      isError: true,
    });
  });

  it('reports a DNS failure as an error result naming the URL', async () => {
    const outcome = await callTool(httpGetTool, { url: 'http://no-such-host.invalid/x' });
    expect(parsed(outcome)).toEqual({
      status: 'error',
      error: 'request to http://no-such-host.invalid/x failed: DNS lookup failed (host not found)',
    });
  });

  it('offers the documented schemas', () => {
    expect(httpGetTool.definition.parameters).toEqual({
      type: 'object',
      properties: {
        url: { type: 'string', description: 'Absolute http:// or https:// URL' },
        headers: {
          type: 'object',
          description: 'Request headers',
          additionalProperties: { type: 'string' },
        },
      },
      required: ['url'],
      additionalProperties: false,
    });
    expect(Object.keys(httpPostTool.definition.parameters.properties as object)).toEqual([
      'url',
      'body',
      'headers',
    ]);
  });
});

describe('createCustomHttpTool', () => {
  const weather = createCustomHttpTool({
    definition: defineTool({
      name: 'tools_weather',
      description: 'Weather for a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
      },
    }),
    method: 'POST',
    timeoutMs: 5_000,
    evaluate: (args) => ({
      url: `${server.url}/echo`,
      headers: { 'x-api-key': 'k-1' },
      query: { q: args.city as string, units: 'metric' },
      body: { city: args.city },
    }),
  });

  it('sends the evaluated url, URL-encoded query, headers and JSON body', async () => {
    const outcome = parsed(await callTool(weather, { city: 'New York' }));
    expect(outcome).toEqual({
      status: 200,
      content_type: 'application/json',
      body: {
        method: 'POST',
        url: '/echo?q=New+York&units=metric',
        body: '{"city":"New York"}',
        type: 'application/json',
        key: 'k-1',
      },
    });
  });
});
