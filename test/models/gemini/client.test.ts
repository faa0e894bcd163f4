/**
 * The Gemini generateContent wire: the exact request bodies the adapter sends through the
 * real SDK. Behaviour shared by every protocol is in test/models/contract/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createGeminiClient } from '../../../src/models/gemini/client.ts';
import type { Message, ModelRequest, ResolvedModel } from '../../../src/models/model-types.ts';
import { geminiProtocol, scriptedThoughtSignature } from '../../../src/testing/protocols/gemini.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
import { toolResults } from '../protocol-harness.ts';
import { FLASH, PDF_BASE64, PNG_BASE64, WEATHER_TOOL } from './conversation.ts';

let server: ScriptedModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(turns: ScriptTurn[], model: Partial<ResolvedModel> = {}) {
  server = await ScriptedModelServer.start({ turns, handlers: [geminiProtocol] });
  const client = createGeminiClient({ ...FLASH, baseUrl: server.baseUrl('gemini'), ...model });
  return { server, client };
}

type WirePart = Record<string, unknown>;
type WireBody = { contents: Array<{ role: string; parts: WirePart[] }> } & Record<string, unknown>;

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

describe('Gemini generateContent wire through the real SDK', () => {
  it('runs a multi-turn tool conversation with parallel calls', async () => {
    const { server, client } = await start([
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
      { text: 'Paris 18 °C, Oslo 4 °C.', match: { lastMessageContains: '4 C' } },
    ]);
    const first = await client.generate(ask());
    expect(first.stopReason).toBe('tool_use');
    const [text, paris, oslo] = first.message.parts;
    expect(text).toEqual({ type: 'text', text: 'Checking both.' });
    expect(paris).toMatchObject({
      type: 'tool_call',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(oslo).toMatchObject({
      type: 'tool_call',
      name: 'get_weather',
      arguments: '{"city":"Oslo"}',
    });
    const ids = first.message.parts.flatMap((part) => (part.type === 'tool_call' ? [part.id] : []));
    expect(new Set(ids).size).toBe(2);
    const second = await client.generate(
      ask({ messages: [ASK, first.message, toolResults(first.message, ['18 C', '4 C'])] }),
    );
    expect(second.stopReason).toBe('end');
    expect(second.message.parts).toEqual([{ type: 'text', text: 'Paris 18 °C, Oslo 4 °C.' }]);
    expect(body(server, 1).contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'Checking both.' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } } },
          { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: '18 C' } } },
          { functionResponse: { name: 'get_weather', response: { output: '4 C' } } },
        ],
      },
    ]);
    expect(server.requests.map((request) => request.path)).toEqual([
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
    ]);
    server.assertDone();
  });

  it('sends the thought signature back on its function call exactly', async () => {
    const { server, client } = await start([
      {
        reasoning: 'Two cities, two calls.',
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { reasoning: 'Done.', text: 'Sunny.' },
      { text: 'Bye.' },
    ]);
    const first = await client.generate(ask({ reasoning: 'low' }));
    const signature = scriptedThoughtSignature(0, 'Two cities, two calls.');
    expect(first.message.parts[0]).toEqual({
      type: 'reasoning',
      provider: 'gemini',
      text: 'Two cities, two calls.',
    });
    expect(first.message.parts[1]).toMatchObject({ type: 'tool_call', state: { signature } });
    const history = [ASK, first.message, toolResults(first.message, ['sunny'])];
    const second = await client.generate(ask({ reasoning: 'low', messages: history }));
    expect(body(server, 0).generationConfig).toEqual({
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(body(server, 1).contents[1]!.parts).toEqual([
      { text: 'Two cities, two calls.', thought: true },
      {
        functionCall: { name: 'get_weather', args: { city: 'Paris' } },
        thoughtSignature: signature,
      },
    ]);
    // A text answer's signature arrives on the closing chunk and goes back on that text.
    const textSignature = scriptedThoughtSignature(1, 'Done.');
    expect(second.message.parts[1]).toEqual({
      type: 'text',
      text: 'Sunny.',
      state: { signature: textSignature },
    });
    await client.generate(
      ask({
        messages: [
          ...history,
          second.message,
          { role: 'user', parts: [{ type: 'text', text: 'thanks' }] },
        ],
      }),
    );
    expect(body(server, 2).contents[3]!.parts).toEqual([
      { text: 'Done.', thought: true },
      { text: 'Sunny.', thoughtSignature: textSignature },
    ]);
  });

  it('sends images and PDFs as inline data and the system prompt as systemInstruction', async () => {
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
    expect(body(server, 0).contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What are these?' },
          { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
          { inlineData: { mimeType: 'application/pdf', data: PDF_BASE64 } },
        ],
      },
    ]);
    expect(body(server, 0).systemInstruction).toEqual({
      parts: [{ text: 'You are a weather agent.' }],
    });
  });

  it('sends the actor header and the key in its own header', async () => {
    const { server, client } = await start([{ text: 'Sunny.' }]);
    await client.generate(ask({ actor: 'agent/weather' }));
    expect([
      server.requests[0]!.headers['x-sortie-actor'],
      server.requests[0]!.headers['x-goog-api-key'],
    ]).toEqual(['agent/weather', '[redacted]']);
  });

  it('sends converted tool schemas', async () => {
    const { server, client } = await start([{ text: 'ok' }]);
    await client.generate(ask());
    expect(body(server, 0).tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather for a city.',
            parameters: {
              type: 'OBJECT',
              properties: {
                city: { type: 'STRING', description: 'City name' },
                unit: { type: 'STRING', nullable: true, enum: ['celsius', 'fahrenheit'] },
              },
              required: ['city'],
            },
          },
        ],
      },
    ]);
  });
});
