/**
 * The Anthropic Messages wire: the exact request bodies the adapter sends through the real
 * SDK. Behaviour shared by every protocol is in test/models/contract/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicClient } from '../../../src/models/anthropic/client.ts';
import type { Message, ModelRequest, ResolvedModel } from '../../../src/models/model-types.ts';
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

describe('Anthropic Messages wire through the real SDK', () => {
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

  it('posts a streaming request to /v1/messages with the actor header', async () => {
    const { server, client } = await start([{ text: 'Sunny.' }]);
    await client.generate(ask({ actor: 'agent/weather' }));
    expect([
      server.requests[0]!.path,
      server.requests[0]!.headers['x-sortie-actor'],
      body(server, 0).stream,
    ]).toEqual(['/v1/messages', 'agent/weather', true]);
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
});
