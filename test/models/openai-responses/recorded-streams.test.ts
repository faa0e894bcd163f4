/**
 * Recorded Responses API streams of OpenAI, xAI, LM Studio and Ollama
 * (test/fixtures/wire/{openai,xai,lmstudio,ollama}/README.md) replayed through the real
 * `openai` SDK over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Message, ResolvedModel } from '../../../src/models/model-types.ts';
import {
  ask,
  closeHarnesses,
  OLLAMA,
  OPENAI,
  recordedFrames,
  startHarness,
  toolResults,
  type ProtocolCase,
} from '../protocol-harness.ts';

afterEach(closeHarnesses);

type Body = { input: Array<Record<string, unknown>> };

/** Replays a recording, then answers a follow-up so the request sent back can be checked. */
async function replay(
  protocolCase: ProtocolCase,
  folder: string,
  name: string,
  model: Partial<ResolvedModel> = {},
) {
  const harness = await startHarness(
    protocolCase,
    [{ frames: recordedFrames(folder, name) }, { text: 'ok' }],
    { model },
  );
  const deltas: string[] = [];
  const request = ask('Weather in Oslo?', { onDelta: (text) => deltas.push(text) });
  const response = await harness.client.generate(request);
  const sendBack = async (next: Message[] = []): Promise<Body> => {
    await harness.client.generate({
      ...request,
      messages: [...request.messages, response.message, ...next],
    });
    return harness.server.requests[1]!.body as Body;
  };
  return { response, deltas, sendBack };
}

describe('recorded OpenAI streams', () => {
  it('a refusal content part is stop reason refusal with the refusal text', async () => {
    const { response, deltas } = await replay(OPENAI, 'openai', 'stream-refusal.sse');
    const refusal = "I'm sorry, but I can't help with that request.";
    expect(response).toEqual({
      message: { role: 'assistant', parts: [{ type: 'text', text: refusal }] },
      stopReason: 'refusal',
      stopDetail: refusal,
      usage: { input: 31, output: 12, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: 'gpt-4o-2024-08-06',
      warnings: [],
    });
    expect(deltas).toEqual(["I'm sorry,", " but I can't help", ' with that request.']);
  });

  it('keeps the phase of each message and sends it back', async () => {
    const { response, sendBack } = await replay(OPENAI, 'openai', 'stream-phase.sse');
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'Let me look that up.', state: { phase: 'commentary' } },
      { type: 'text', text: 'Oslo is 4 °C and cloudy.', state: { phase: 'final_answer' } },
    ]);
    const body = await sendBack();
    expect(body.input.slice(1)).toEqual([
      { type: 'message', role: 'assistant', content: 'Let me look that up.', phase: 'commentary' },
      {
        type: 'message',
        role: 'assistant',
        content: 'Oslo is 4 °C and cloudy.',
        phase: 'final_answer',
      },
    ]);
  });
});

describe('gateway streams whose item ids change between events', () => {
  const reasoningOf = (id: string, text: string) => ({
    type: 'reasoning',
    provider: 'openai',
    text,
    state: { id, summary: [{ type: 'summary_text', text }] },
  });

  it('a completed response keeps each item once, as the final output has it', async () => {
    const { response, deltas, sendBack } = await replay(
      OPENAI,
      'openai',
      'stream-gateway-changing-ids.sse',
    );
    expect(response.message.parts).toEqual([
      reasoningOf('rs_gw_final_4', 'Oslo is the capital.'),
      { type: 'text', text: 'Oslo is 4 °C.' },
    ]);
    expect(deltas).toEqual(['Oslo', ' is 4 °C', '.']);
    const body = await sendBack();
    expect(body.input.slice(1)).toEqual([
      {
        type: 'reasoning',
        id: 'rs_gw_final_4',
        summary: [{ type: 'summary_text', text: 'Oslo is the capital.' }],
      },
      { type: 'message', role: 'assistant', content: 'Oslo is 4 °C.' },
    ]);
  });

  it('an incomplete response keeps each item once', async () => {
    const { response } = await replay(OPENAI, 'openai', 'stream-gateway-incomplete.sse');
    expect(response.message.parts).toEqual([
      reasoningOf('rs_gw_final_8', 'A long history is asked for.'),
      { type: 'text', text: 'The history of' },
    ]);
    expect(response.stopReason).toBe('max_tokens');
  });
});

describe('recorded xAI streams', () => {
  const grok: Partial<ResolvedModel> = { key: 'grok_4_3', apiName: 'grok-4.3' };

  it('a reasoning summary and text, with cached and reasoning tokens', async () => {
    const { response, deltas } = await replay(OPENAI, 'xai', 'stream-reasoning-text.sse', grok);
    expect(response.message.parts).toEqual([
      {
        type: 'reasoning',
        provider: 'openai',
        text: 'The user wants the capital of Norway.',
        state: {
          id: 'rs_5c0e6f1a-8b2d-4c3e-9f47-a1b2c3d4e5f6',
          summary: [{ text: 'The user wants the capital of Norway.', type: 'summary_text' }],
          encrypted_content:
            'SortieXaiEncryptedReasoningBlob0123456789abcdefghijklmnopqrstuvwxyz+/==',
        },
      },
      { type: 'text', text: 'Oslo.' },
    ]);
    expect(deltas).toEqual(['Oslo', '.']);
    expect(response.usage).toEqual({
      input: 11,
      output: 151,
      cacheRead: 192,
      cacheWrite: 0,
      reasoning: 149,
    });
    expect([response.stopReason, response.model]).toEqual(['end', 'grok-4.3']);
  });

  it('a final response with an empty output keeps the items the stream carried', async () => {
    const full = await replay(OPENAI, 'xai', 'stream-reasoning-text.sse', grok);
    await closeHarnesses();
    const empty = await replay(OPENAI, 'xai', 'stream-empty-final-output.sse', grok);
    expect(empty.response.message).toEqual(full.response.message);
    expect(empty.response.message.parts).toHaveLength(2);
  });
});

describe('recorded LM Studio streams', () => {
  it('raw reasoning text, logprobs on deltas and a call sent as arguments.done only', async () => {
    const { response, sendBack } = await replay(
      OLLAMA,
      'lmstudio',
      'stream-reasoning-tool-call.sse',
      { apiName: 'qwen/qwen3-8b' },
    );
    const reasoning = 'The user wants the weather in Oslo. I will call get_weather with city Oslo.';
    expect(response.message.parts).toEqual([
      {
        type: 'reasoning',
        provider: 'ollama',
        text: reasoning,
        state: {
          id: 'rs_k3x9q2m7w1v8n4p6s0t5',
          summary: [],
          content: [{ type: 'reasoning_text', text: reasoning }],
        },
      },
      { type: 'text', text: 'Checking Oslo.' },
      {
        type: 'tool_call',
        id: 'call_4821907365512093',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
    ]);
    expect(response.usage).toEqual({
      input: 154,
      output: 47,
      cacheRead: 4,
      cacheWrite: 0,
      reasoning: 31,
    });
    expect(response.stopReason).toBe('tool_use');
    const body = await sendBack([toolResults(response.message, ['4 °C'])]);
    expect(body.input[1]).toEqual({
      type: 'reasoning',
      id: 'rs_k3x9q2m7w1v8n4p6s0t5',
      summary: [],
      content: [{ type: 'reasoning_text', text: reasoning }],
    });
  });
});

describe('recorded Ollama streams', () => {
  it('text streamed before tool calls is kept though response.completed leaves it out', async () => {
    const { response, deltas, sendBack } = await replay(
      OLLAMA,
      'ollama',
      'stream-text-then-tool-calls.sse',
    );
    expect(deltas.join('')).toBe("I'll check the weather in Oslo first.");
    expect(response.message.parts).toEqual([
      { type: 'text', text: "I'll check the weather in Oslo first." },
      { type: 'tool_call', id: 'call_k2m9x4qz', name: 'get_weather', arguments: '{"city":"Oslo"}' },
    ]);
    expect(response.stopReason).toBe('tool_use');
    const body = await sendBack([toolResults(response.message, ['4 °C'])]);
    expect(body.input.slice(1)).toEqual([
      { type: 'message', role: 'assistant', content: "I'll check the weather in Oslo first." },
      {
        type: 'function_call',
        call_id: 'call_k2m9x4qz',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
      { type: 'function_call_output', call_id: 'call_k2m9x4qz', output: '4 °C' },
    ]);
  });
});
