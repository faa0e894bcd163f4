import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors.ts';
import { TruncatedStreamError } from '../../../src/models/provider-errors.ts';
import { createGeminiClient } from '../../../src/models/gemini/index.ts';
import type { Message, ModelRequest, ResolvedModel } from '../../../src/models/types.ts';
import { geminiProtocol, scriptedThoughtSignature } from '../../../src/testing/protocols/gemini.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
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

function results(first: Message, outputs: string[]): Message {
  const calls = first.parts.filter((part) => part.type === 'tool_call');
  return {
    role: 'user',
    parts: calls.map((call, index) => ({
      type: 'tool_result' as const,
      callId: call.id,
      name: call.name,
      content: outputs[index]!,
      isError: false,
    })),
  };
}

describe('Gemini adapter through the SDK', () => {
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
      ask({ messages: [ASK, first.message, results(first.message, ['18 C', '4 C'])] }),
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
    const history = [ASK, first.message, results(first.message, ['sunny'])];
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

  it('reports usage with cached and thought tokens', async () => {
    const { client } = await start([
      { text: 'ok', usage: { input: 120, output: 40, cacheRead: 3000, reasoning: 25 } },
    ]);
    const response = await client.generate(ask());
    expect(response.usage).toEqual({
      input: 120,
      output: 40,
      cacheRead: 3000,
      cacheWrite: 0,
      reasoning: 25,
    });
    expect(response.model).toBe('gemini-2.5-flash');
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

  it('streams text deltas and sends the actor header and the key in its own header', async () => {
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
    expect(server.requests[0]!.headers['x-goog-api-key']).toBe('[redacted]');
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

  it('reports max_tokens as the stop reason', async () => {
    const { client } = await start([{ text: 'cut', stopReason: 'max_tokens' }]);
    expect((await client.generate(ask())).stopReason).toBe('max_tokens');
  });
  it('treats a frame cut in half as a truncated stream', async () => {
    const cut =
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}\r\n\r\ndata: {"candidates":[{"content":{"parts":[{"text":"Hel';
    const fetchCut: typeof fetch = async () =>
      new Response(cut, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const client = createGeminiClient(
      { ...FLASH, baseUrl: 'http://127.0.0.1:9' },
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

  it('fails with the status of an error sent inside the stream', async () => {
    const frames =
      'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}\r\n\r\n' +
      'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\r\n\r\n';
    const fetchError: typeof fetch = async () =>
      new Response(frames, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    const client = createGeminiClient(
      { ...FLASH, baseUrl: 'http://127.0.0.1:9' },
      { fetch: fetchError },
    );
    const error = await client.generate(ask()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect([
      (error as ProviderError).status,
      (error as ProviderError).retryable,
      (error as ProviderError).message,
    ]).toEqual([503, true, 'The model is overloaded.']);
  });
});
