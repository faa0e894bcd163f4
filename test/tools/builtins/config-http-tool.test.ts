import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Expr, Span } from '../../../src/config/ast.ts';
import { parseExpression } from '../../../src/config/syntax/index.ts';
import type { CustomToolConfig } from '../../../src/config/types.ts';
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

describe('customToolFromConfig', () => {
  it('evaluates url, headers, query and body per call and sends them', async () => {
    const tool = customToolFromConfig(rateTool(server.url), { api_key: 'k-42' });
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
    const tool = customToolFromConfig(config, { api_key: 'k-42' });
    const before = server.seen.length;
    expect(await callTool(tool, { from: 'USD' })).toEqual({
      content:
        '{"status":"error","error":"could not build the request: item is not available here"}',
      isError: true,
    });
    expect(server.seen.length).toBe(before);
  });
});
