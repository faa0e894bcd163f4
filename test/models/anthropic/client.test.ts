import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors.ts';
import { TruncatedStreamError } from '../../../src/models/provider-errors.ts';
import { createAnthropicClient } from '../../../src/models/anthropic/index.ts';
import type { Message, ModelRequest, ResolvedModel } from '../../../src/models/types.ts';
import {
  anthropicProtocol,
  scriptedThinkingSignature,
} from '../../../src/testing/protocols/anthropic.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
import { PDF_BASE64, PNG_BASE64, SONNET, WEATHER_TOOL } from './conversation.ts';

let server: ScriptedModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptTurn[], model: Partial<ResolvedModel> = {}) {
  server = await ScriptedModelServer.start({ turns, handlers: [anthropicProtocol] });
  const client = createAnthropicClient({
    ...SONNET,
    baseUrl: server.baseUrl('anthropic'),
    ...model,
  });
  return { server, client };
}

type WireBody = {
  messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
} & Record<string, unknown>;

function body(target: ScriptedModelServer, index: number): WireBody {
  return target.requests[index]!.body as WireBody;
}

const ASK: Message = {
  role: 'user',
  parts: [{ type: 'text', text: 'Weather in Paris and Oslo?' }],
};

function ask(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a weather agent.',
    messages: [ASK],
    tools: [WEATHER_TOOL],
    ...overrides,
  };
}

describe('Anthropic adapter through the SDK', () => {
  it('runs a multi-turn tool conversation with parallel calls', async () => {
    const { server, client } = await start([
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
      { text: 'Paris 18 °C, Oslo unknown.', match: { lastMessageContains: 'city not found' } },
    ]);
    const first = await client.generate(ask());
    expect(first.stopReason).toBe('tool_use');
    expect(first.message.parts).toEqual([
      { type: 'text', text: 'Checking both.' },
      { type: 'tool_call', id: 'toolu_0_0', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'tool_call', id: 'toolu_0_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
    const results: Message[] = [
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'toolu_0_0',
            name: 'get_weather',
            content: '{"temp_c":18}',
            isError: false,
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'toolu_0_1',
            name: 'get_weather',
            content: 'city not found',
            isError: true,
          },
        ],
      },
    ];
    const second = await client.generate(ask({ messages: [ASK, first.message, ...results] }));
    expect(second.stopReason).toBe('end');
    expect(second.message.parts).toEqual([{ type: 'text', text: 'Paris 18 °C, Oslo unknown.' }]);
    expect(body(server, 1).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_0_0', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_0_1', name: 'get_weather', input: { city: 'Oslo' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_0_0',
            content: '{"temp_c":18}',
            is_error: false,
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_0_1',
            content: 'city not found',
            is_error: true,
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
    server.assertDone();
  });

  it('sends the thinking block back with its signature exactly', async () => {
    const { server, client } = await start([
      {
        reasoning: 'Two cities, two calls.',
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { text: 'Sunny.' },
    ]);
    const first = await client.generate(ask({ reasoning: 'low' }));
    const signature = scriptedThinkingSignature(0, 'Two cities, two calls.');
    expect(first.message.parts[0]).toEqual({
      type: 'reasoning',
      provider: 'anthropic',
      text: 'Two cities, two calls.',
      state: { signature },
    });
    const result: Message = {
      role: 'user',
      parts: [
        {
          type: 'tool_result',
          callId: 'toolu_0_0',
          name: 'get_weather',
          content: 'sunny',
          isError: false,
        },
      ],
    };
    await client.generate(ask({ reasoning: 'low', messages: [ASK, first.message, result] }));
    expect(body(server, 0).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body(server, 1).messages[1]!.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Two cities, two calls.',
      signature,
    });
  });

  it('reports usage with cached tokens', async () => {
    const { client } = await start([
      { text: 'ok', usage: { input: 120, output: 40, cacheRead: 3000, cacheWrite: 512 } },
    ]);
    const response = await client.generate(ask());
    expect(response.usage).toEqual({
      input: 120,
      output: 40,
      cacheRead: 3000,
      cacheWrite: 512,
      reasoning: 0,
    });
    expect(response.model).toBe('claude-sonnet-4-5-20250929');
  });

  it('puts prompt-caching markers on the wire only when caching is on', async () => {
    const { server, client } = await start([{ text: 'a' }, { text: 'b' }]);
    await client.generate(ask());
    const uncached = createAnthropicClient({
      ...SONNET,
      baseUrl: server.baseUrl('anthropic'),
      promptCaching: false,
    });
    await uncached.generate(ask());
    expect(body(server, 0).system).toEqual([
      { type: 'text', text: 'You are a weather agent.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body(server, 0).messages[0]!.content).toEqual([
      { type: 'text', text: 'Weather in Paris and Oslo?', cache_control: { type: 'ephemeral' } },
    ]);
    expect(JSON.stringify(body(server, 1))).not.toContain('cache_control');
  });

  it('sends images and PDFs as base64 blocks', async () => {
    const { server, client } = await start([{ text: 'A map and a forecast.' }]);
    const message: Message = {
      role: 'user',
      parts: [
        { type: 'text', text: 'What are these?' },
        { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
        {
          type: 'document',
          mediaType: 'application/pdf',
          data: PDF_BASE64,
          filename: 'forecast.pdf',
        },
      ],
    };
    await client.generate(ask({ messages: [message] }));
    expect(body(server, 0).messages[0]!.content.slice(1)).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 } },
      {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 },
        title: 'forecast.pdf',
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it('streams text deltas and sends the actor header', async () => {
    const { server, client } = await start([
      { text: 'It is sunny today.', match: { actor: 'agent/weather' } },
    ]);
    const deltas: string[] = [];
    const response = await client.generate(
      ask({ actor: 'agent/weather', onDelta: (text) => deltas.push(text) }),
    );
    expect(deltas).toEqual(['It ', 'is ', 'sunny ', 'today.']);
    expect(response.message.parts).toEqual([{ type: 'text', text: 'It is sunny today.' }]);
    expect(server.requests[0]!.headers['x-sortie-actor']).toBe('agent/weather');
    expect(server.requests[0]!.stream).toBe(true);
    expect(server.requests[0]!.path).toBe('/v1/messages');
  });

  it('passes malformed tool-call JSON through verbatim', async () => {
    const { client } = await start([
      { toolCalls: [{ name: 'get_weather', arguments: '{"city": "Par' }] },
    ]);
    const response = await client.generate(ask());
    expect(response.message.parts).toEqual([
      { type: 'tool_call', id: 'toolu_0_0', name: 'get_weather', arguments: '{"city": "Par' },
    ]);
  });

  it('reports max_tokens as the stop reason', async () => {
    const { client } = await start([{ text: 'cut', stopReason: 'max_tokens' }]);
    expect((await client.generate(ask())).stopReason).toBe('max_tokens');
  });
  it('treats a frame cut in half as a truncated stream', async () => {
    const cut =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\nevent: content_block_start\ndata: {"type":"content_blo';
    const fetchCut: typeof fetch = async () =>
      new Response(cut, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const client = createAnthropicClient(
      { ...SONNET, baseUrl: 'http://127.0.0.1:9' },
      { fetch: fetchCut },
    );
    await expect(client.generate(ask())).rejects.toBeInstanceOf(TruncatedStreamError);
  });

  it('lets an error thrown by onDelta through unchanged', async () => {
    const { client } = await start([{ text: 'Hello there' }]);
    const failure = new RangeError('listener failed');
    const onDelta = (): void => {
      throw failure;
    };
    await expect(client.generate(ask({ onDelta }))).rejects.toBe(failure);
  });

  it('fails retryably on an overloaded error sent inside the stream', async () => {
    const frames =
      'event: message_start\ndata: {"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n' +
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const fetchError: typeof fetch = async () =>
      new Response(frames, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const client = createAnthropicClient(
      { ...SONNET, baseUrl: 'http://127.0.0.1:9' },
      { fetch: fetchError },
    );
    const error = await client.generate(ask()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect([(error as ProviderError).retryable, (error as ProviderError).message]).toEqual([
      true,
      'Overloaded',
    ]);
  });
});
