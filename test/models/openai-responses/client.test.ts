/**
 * The OpenAI Responses wire: the exact request bodies the adapter sends through the real SDK.
 * Behaviour shared by every protocol is in test/models/contract/.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../../../src/models/model-types.ts';
import { scriptedEncryptedContent } from '../../../src/testing/protocols/openai-output.ts';
import {
  ask as askWithTools,
  closeHarnesses,
  OPENAI,
  startHarness,
  WEATHER_TOOL as weatherTool,
  type Harness,
  type HarnessOptions,
} from '../protocol-harness.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';

const API_KEY = OPENAI.model.apiKey!;
let harness: Harness | undefined;
afterEach(async () => {
  await closeHarnesses();
  harness = undefined;
});

function start(turns: ScriptTurn[], options?: HarnessOptions): Promise<Harness> {
  return startHarness(OPENAI, turns, options);
}

/** A request with one user text message and no tools. */
function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return askWithTools(text, { tools: [], ...extra });
}

type Body = { input: Array<Record<string, unknown>>; [key: string]: unknown };
const bodyOf = (index: number): Body => harness!.server.requests[index]!.body as Body;

describe('OpenAI Responses wire through the real SDK', () => {
  it('runs a multi-turn tool conversation', async () => {
    harness = await start([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'It is 4 °C in Oslo.', match: { lastMessageContains: '"temp":4' } },
    ]);
    const first = await harness.client.generate(ask('Weather in Oslo?', { tools: [weatherTool] }));
    expect(first.stopReason).toBe('tool_use');
    expect(first.message).toEqual({
      role: 'assistant',
      parts: [
        { type: 'tool_call', id: 'call_0_0', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      ],
    });
    const history: Message[] = [
      ...ask('Weather in Oslo?').messages,
      first.message,
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'call_0_0',
            name: 'get_weather',
            content: '{"temp":4}',
            isError: false,
          },
        ],
      },
    ];
    const second = await harness.client.generate({
      ...ask(''),
      messages: history,
      tools: [weatherTool],
    });
    expect(second.stopReason).toBe('end');
    expect(second.message.parts).toEqual([{ type: 'text', text: 'It is 4 °C in Oslo.' }]);

    expect(bodyOf(0).tools).toEqual([{ type: 'function', strict: false, ...weatherTool }]);
    expect(bodyOf(1).input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Weather in Oslo?' }],
      },
      {
        type: 'function_call',
        call_id: 'call_0_0',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
      { type: 'function_call_output', call_id: 'call_0_0', output: '{"temp":4}' },
    ]);
    expect([bodyOf(1).store, bodyOf(1).stream, bodyOf(1).instructions, bodyOf(1).model]).toEqual([
      false,
      true,
      'You are terse.',
      'gpt-5',
    ]);
    harness.server.assertDone();
  });

  it('returns parallel tool calls in order, malformed arguments verbatim', async () => {
    harness = await start([
      {
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Oslo' } },
          { name: 'get_weather', arguments: '{"city": "Bergen"', id: 'call_custom' },
        ],
      },
    ]);
    const response = await harness.client.generate(ask('Both cities', { tools: [weatherTool] }));
    expect(response.message.parts).toEqual([
      { type: 'tool_call', id: 'call_0_0', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'tool_call', id: 'call_custom', name: 'get_weather', arguments: '{"city": "Bergen"' },
    ]);
    expect(response.stopReason).toBe('tool_use');
  });

  it('round-trips reasoning items with the same encrypted content', async () => {
    harness = await start([
      {
        reasoning: 'Need the weather first.',
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
      },
      { text: 'Cold.' },
    ]);
    const first = await harness.client.generate(
      ask('Weather?', { tools: [weatherTool], reasoning: 'high' }),
    );
    const encrypted = scriptedEncryptedContent(0, 'Need the weather first.');
    expect(first.message.parts[0]).toEqual({
      type: 'reasoning',
      provider: 'openai',
      text: 'Need the weather first.',
      state: {
        id: 'rs_0',
        summary: [{ type: 'summary_text', text: 'Need the weather first.' }],
        encrypted_content: encrypted,
      },
    });
    const history: Message[] = [
      ...ask('Weather?').messages,
      first.message,
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'call_0_0',
            name: 'get_weather',
            content: 'cold',
            isError: false,
          },
        ],
      },
    ];
    await harness.client.generate({
      ...ask(''),
      messages: history,
      tools: [weatherTool],
      reasoning: 'high',
    });
    expect(bodyOf(0).reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(bodyOf(0).include).toEqual(['reasoning.encrypted_content']);
    expect(bodyOf(1).input[1]).toEqual({
      type: 'reasoning',
      id: 'rs_0',
      summary: [{ type: 'summary_text', text: 'Need the weather first.' }],
      encrypted_content: encrypted,
    });
  });

  it('sends no reasoning settings to a model that cannot reason', async () => {
    harness = await start([{ text: 'hi' }], {
      model: { key: 'gpt_4o', apiName: 'gpt-4o', reasoningCapable: false },
    });
    await harness.client.generate(ask('hello', { reasoning: 'low' }));
    expect(bodyOf(0)).not.toHaveProperty('reasoning');
    expect(bodyOf(0)).not.toHaveProperty('include');
  });

  it('sends the output limit as max_output_tokens', async () => {
    harness = await start([{ text: 'partial', stopReason: 'max_tokens' }]);
    await harness.client.generate(ask('long essay', { maxOutputTokens: 5 }));
    expect(bodyOf(0).max_output_tokens).toBe(5);
  });

  it('sends images and PDFs as input items and never leaks the key into the record', async () => {
    harness = await start([{ text: 'seen' }]);
    await harness.client.generate({
      system: '',
      tools: [],
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'look' },
            { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
            { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', filename: 'a.pdf' },
          ],
        },
      ],
    });
    expect(bodyOf(0).input).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'look' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          {
            type: 'input_file',
            file_data: 'data:application/pdf;base64,JVBERi0=',
            filename: 'a.pdf',
          },
        ],
      },
    ]);
    expect(bodyOf(0)).not.toHaveProperty('instructions');
    expect(harness.server.requests[0]!.headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(harness.server.requests)).not.toContain(API_KEY);
  });
});
