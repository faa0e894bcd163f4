import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expr, Span } from '../../../src/config/ast.ts';
import { parseExpression } from '../../../src/config/syntax/index.ts';
import type { CustomToolConfig } from '../../../src/config/config-types.ts';
import { customToolFromConfig } from '../../../src/tools/builtins/config-http-tool.ts';
import { callTool, parsed } from './call-tool.ts';
import { startTestServer } from './test-server.ts';
import type { TestServer } from './test-server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  server.route('/rates', (request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        url: request.url,
        key: request.headers['x-key'] ?? null,
        body: request.body,
      }),
    );
  });
});

afterAll(async () => {
  await server.close();
});

function expr(text: string): Expr {
  const { expr: parsedExpr, diagnostics } = parseExpression(text);
  if (parsedExpr === undefined) throw new Error(JSON.stringify(diagnostics));
  return parsedExpr;
}

const span: Span = {
  file: 'tools.hcl',
  start: { line: 1, column: 1, offset: 0 },
  end: { line: 1, column: 1, offset: 0 },
};

function rateTool(url: string): CustomToolConfig {
  return {
    name: 'exchange_rate',
    implements: 'post',
    description: 'Exchange rate',
    inputs: {
      jsonSchema: {
        type: 'object',
        properties: { from: { type: 'string' }, to: { type: 'string', default: 'EUR' } },
        required: ['from'],
      },
      fields: [],
    },
    url: expr(`"${url}/rates?base=\${inputs.from}"`),
    headers: [{ name: 'x-key', value: expr('vars.api_key') }],
    query: [{ name: 'symbols', value: expr('"${inputs.to} & more"') }],
    body: expr('{ pair = "${inputs.from}/${inputs.to}", amounts = [1, 2] }'),
    timeoutSeconds: 5,
    span,
  };
}

const VARIABLES = { values: { api_key: 'k-42' }, secret: new Set<string>() };

describe('customToolFromConfig', () => {
  it('describes a block without a description as the built-in it wraps', () => {
    const { description: _omitted, ...withoutDescription } = rateTool(server.url);
    const tool = customToolFromConfig(withoutDescription, { values: {}, secret: new Set() });
    expect(tool.definition.description).toBe(
      'Send an HTTP POST request. Returns the HTTP status, content type and body (JSON parsed).',
    );
    expect(
      customToolFromConfig(rateTool(server.url), { values: {}, secret: new Set() }).definition
        .description,
    ).toBe('Exchange rate');
  });

  it('evaluates url, headers, query and body per call and sends them', async () => {
    const tool = customToolFromConfig(rateTool(server.url), VARIABLES);
    expect(tool.definition.name).toBe('tools_exchange_rate');
    expect(parsed(await callTool(tool, { from: 'USD' }))).toEqual({
      status: 200,
      content_type: 'application/json',
      body: {
        url: '/rates?base=USD&symbols=EUR+%26+more',
        key: 'k-42',
        body: '{"pair":"USD/EUR","amounts":[1,2]}',
      },
    });
  });

  it('turns a template that cannot be evaluated into an error result', async () => {
    const config = {
      ...rateTool(server.url),
      headers: [{ name: 'x-key', value: expr('item.key') }],
    };
    const tool = customToolFromConfig(config, VARIABLES);
    const before = server.seen.length;
    expect(await callTool(tool, { from: 'USD' })).toEqual({
      content:
        '{"status":"error","error":"could not build the request: item is not available here"}',
      isError: true,
    });
    expect(server.seen.length).toBe(before);
  });
});

describe('content_type of a custom tool', () => {
  function postTool(contentType: string, body: string, headers: CustomToolConfig['headers'] = []) {
    return customToolFromConfig(
      {
        ...rateTool(server.url),
        headers,
        query: [],
        body: expr(body),
        contentType: expr(contentType),
      },
      VARIABLES,
    );
  }

  it('sends a form body URL-encoded and a text body as it is, each with its content type', async () => {
    await callTool(postTool('"form"', '{ pair = "${inputs.from}&EUR", amount = 2, live = true }'), {
      from: 'USD',
    });
    const form = server.seen.at(-1);
    expect([form?.headers['content-type'], form?.body]).toEqual([
      'application/x-www-form-urlencoded',
      'pair=USD%26EUR&amount=2&live=true',
    ]);
    await callTool(postTool('"text"', '"rate of ${inputs.from}"'), { from: 'USD' });
    const text = server.seen.at(-1);
    expect([text?.headers['content-type'], text?.body]).toEqual([
      'text/plain; charset=utf-8',
      'rate of USD',
    ]);
  });

  it('sends JSON by default and for "json", and keeps a content-type header the block sets', async () => {
    await callTool(postTool('"json"', '{ n = 1 }'), { from: 'USD' });
    expect([server.seen.at(-1)?.headers['content-type'], server.seen.at(-1)?.body]).toEqual([
      'application/json',
      '{"n":1}',
    ]);
    const header = [{ name: 'Content-Type', value: expr('"text/csv"') }];
    await callTool(postTool('"text"', '"a,b"', header), { from: 'USD' });
    expect([server.seen.at(-1)?.headers['content-type'], server.seen.at(-1)?.body]).toEqual([
      'text/csv',
      'a,b',
    ]);
  });

  it('answers a body that does not fit its content_type with an error result and sends nothing', async () => {
    const before = server.seen.length;
    const results = [
      await callTool(postTool('"text"', '{ a = 1 }'), { from: 'USD' }),
      await callTool(postTool('"form"', '[1, 2]'), { from: 'USD' }),
      await callTool(postTool('"form"', '{ a = { b = 1 } }'), { from: 'USD' }),
      await callTool(postTool('inputs.from', '{ a = 1 }'), { from: 'xml' }),
    ];
    expect(results.map((result) => (parsed(result) as { error: string }).error)).toEqual([
      'could not build the request: content_type "text" sends a string body; this body is an object',
      'could not build the request: content_type "form" sends an object of fields; this body is a list',
      'could not build the request: content_type "form" sends flat fields; field "a" is an object',
      'could not build the request: content_type must be "json", "form" or "text", not "xml"',
    ]);
    expect(server.seen.length).toBe(before);
  });
});

/** A GET tool with one string input `value` and the given url and headers. */
function probeTool(url: string, headers: CustomToolConfig['headers'] = []): CustomToolConfig {
  return {
    name: 'probe',
    implements: 'get',
    description: 'Probe',
    inputs: {
      jsonSchema: {
        type: 'object',
        properties: { value: { type: 'string' } },
        required: ['value'],
      },
      fields: [],
    },
    url: expr(url),
    headers,
    query: [],
    timeoutSeconds: 5,
    span,
  };
}

describe('customToolFromConfig: values encoded for where they go', () => {
  const secretVariables = {
    values: { api_url: '', token: 'k+/=&admin=1' },
    secret: new Set(['token']),
  };

  beforeAll(() => {
    secretVariables.values.api_url = server.url;
    for (const path of ['/search', '/users/a%2Fb/profile', '/users/..%2Fadmin/profile']) {
      server.route(path, (request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ url: request.url }));
      });
    }
  });

  /** The URL the server received for one call of the tool. */
  async function received(config: CustomToolConfig, value: string): Promise<unknown> {
    const outcome = await callTool(customToolFromConfig(config, secretVariables), { value });
    return (parsed(outcome) as { body: { url: string } }).body.url;
  }

  it('keeps an input in its query parameter: & and # add nothing', async () => {
    const config = probeTool('"${vars.api_url}/search?q=${inputs.value}&limit=5"');
    expect(await received(config, 'a&k=INJECTED')).toBe('/search?q=a%26k%3DINJECTED&limit=5');
    expect(await received(config, 'a#x')).toBe('/search?q=a%23x&limit=5');
  });

  it('keeps an input in its path segment: / and .. do not move the path', async () => {
    const config = probeTool('"${vars.api_url}/users/${inputs.value}/profile"');
    expect(await received(config, 'a/b')).toBe('/users/a%2Fb/profile');
    expect(await received(config, '../admin')).toBe('/users/..%2Fadmin/profile');
    const before = server.seen.length;
    expect(await callTool(customToolFromConfig(config, secretVariables), { value: '..' })).toEqual({
      content: JSON.stringify({
        status: 'error',
        error:
          'could not build the request: input "value" would make the URL path segment "..", which changes the path; pass a name, not "." or ".."',
      }),
      isError: true,
    });
    expect(server.seen.length).toBe(before);
  });

  it('encodes a secret variable in the query, so it arrives whole', async () => {
    const config = probeTool('"${vars.api_url}/search?key=${vars.token}&q=${inputs.value}"');
    expect(await received(config, 'x')).toBe('/search?key=k%2B%2F%3D%26admin%3D1&q=x');
  });

  it('refuses a header value with a line break before sending anything', async () => {
    const config = probeTool('"${vars.api_url}/search"', [
      { name: 'X-Note', value: expr('"note ${inputs.value}"') },
    ]);
    const before = server.seen.length;
    expect(
      await callTool(customToolFromConfig(config, secretVariables), {
        value: 'hi\r\nX-Injected: 1',
      }),
    ).toEqual({
      content: JSON.stringify({
        status: 'error',
        error:
          'could not build the request: input "value" goes into the header "X-Note" and contains a line break (CR or LF); header values must be one line',
      }),
      isError: true,
    });
    expect(server.seen.length).toBe(before);
  });
});
