import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { openaiProtocol } from '../../../src/testing/protocols/openai.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('openaiProtocol', () => {
  it('serves POST /v1/responses only', () => {
    expect(openaiProtocol.accepts('POST', '/v1/responses')).toBe(true);
    expect(openaiProtocol.accepts('GET', '/v1/responses')).toBe(false);
    expect(openaiProtocol.accepts('POST', '/v1/chat/completions')).toBe(false);
  });

  it('summarizes the latest user turn, tool outputs included', () => {
    const summary = openaiProtocol.summarize('/v1/responses', {
      model: 'gpt-5',
      stream: true,
      instructions: 'Be brief.',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'c1', output: '{"temp":4}' },
        { role: 'user', content: 'and tomorrow?' },
      ],
    });
    expect(summary).toEqual({
      model: 'gpt-5',
      stream: true,
      system: 'Be brief.',
      lastMessage: '{"temp":4}\nand tomorrow?',
      allText: 'Weather?\n\nget_weather {"city":"Oslo"}\n{"temp":4}\nand tomorrow?',
    });
  });

  it('builds a complete non-streaming response the SDK accepts', async () => {
    server = await ScriptedModelServer.start({
      turns: [
        {
          reasoning: 'think',
          text: 'Hello!',
          toolCalls: [{ name: 'note', arguments: { a: 1 } }],
          usage: { input: 7, cacheRead: 3, output: 9, reasoning: 4 },
        },
      ],
    });
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: server.baseUrl('openai'),
      maxRetries: 0,
    });
    const response = await client.responses.create({ model: 'gpt-5', input: 'hi', store: false });
    expect(response.object).toBe('response');
    expect(response.output_text).toBe('Hello!');
    expect(response.output.map((item) => item.type)).toEqual([
      'reasoning',
      'message',
      'function_call',
    ]);
    expect(response.usage).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 3 },
      output_tokens: 9,
      output_tokens_details: { reasoning_tokens: 4 },
      total_tokens: 19,
    });
    expect(response.model).toBe('gpt-5');
  });

  it('streams events the SDK parses, ending in response.completed', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ text: 'a b', toolCalls: [{ name: 'note', arguments: 'not json' }] }],
    });
    const client = new OpenAI({
      apiKey: 'sk-test',
      baseURL: server.baseUrl('openai'),
      maxRetries: 0,
    });
    const stream = await client.responses.create({
      model: 'gpt-5',
      input: 'hi',
      stream: true,
      store: false,
    });
    const types: string[] = [];
    let last: unknown;
    for await (const event of stream) {
      types.push(event.type);
      last = event;
    }
    expect(types).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const completed = last as {
      response: { status: string; output: Array<{ arguments?: string }> };
    };
    expect(completed.response.status).toBe('completed');
    expect(completed.response.output[1]!.arguments).toBe('not json');
  });

  it('formats errors as the API does', () => {
    expect(openaiProtocol.errorBody(401, 'bad key')).toEqual({
      error: { message: 'bad key', type: 'invalid_request_error', param: null, code: null },
    });
    expect(openaiProtocol.errorBody(503, 'busy')).toEqual({
      error: { message: 'busy', type: 'server_error', param: null, code: null },
    });
  });
});
