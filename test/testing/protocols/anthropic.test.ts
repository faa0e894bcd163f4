import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import {
  anthropicProtocol,
  scriptedThinkingSignature,
  scriptedToolUseId,
} from '../../../src/testing/protocols/anthropic.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';

const CONTEXT = { turnIndex: 3, model: 'claude-haiku-4-5-20251001' };

function events(turn: ScriptTurn): Array<{ event: string; data: Record<string, unknown> }> {
  return anthropicProtocol.stream(turn, CONTEXT).map((frame) => {
    const [eventLine, dataLine, ...rest] = frame.split('\n');
    expect(rest).toEqual(['', '']);
    return {
      event: eventLine!.replace(/^event: /, ''),
      data: JSON.parse(dataLine!.replace(/^data: /, '')),
    };
  });
}

describe('anthropicProtocol', () => {
  it('serves POST /v1/messages only', () => {
    expect(anthropicProtocol.accepts('POST', '/v1/messages')).toBe(true);
    expect(anthropicProtocol.accepts('GET', '/v1/messages')).toBe(false);
    expect(anthropicProtocol.accepts('POST', '/v1/messages/count_tokens')).toBe(false);
    expect(anthropicProtocol.accepts('POST', '/v1/responses')).toBe(false);
  });

  it('summarizes model, stream flag, system blocks and the last user message with tool results', () => {
    const body = {
      model: 'claude-sonnet-4-6',
      stream: true,
      system: [{ type: 'text', text: 'You are terse.' }],
      messages: [
        { role: 'user', content: 'first question' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: { q: 'x' } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [{ type: 'text', text: 'result: 42' }],
            },
            { type: 'text', text: 'and hurry' },
          ],
        },
      ],
    };
    expect(anthropicProtocol.summarize('/v1/messages', body)).toEqual({
      model: 'claude-sonnet-4-6',
      stream: true,
      system: 'You are terse.',
      lastMessage: 'result: 42and hurry',
      allText: 'first question\nlookup {"q":"x"}\nresult: 42and hurry',
    });
  });

  it('replies with a complete message: thinking with signature, text, tool use, usage', () => {
    const turn: ScriptTurn = {
      reasoning: 'hmm',
      text: 'Looking.',
      toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }],
      usage: { input: 10, output: 20, cacheRead: 30, cacheWrite: 40 },
    };
    expect(anthropicProtocol.reply(turn, CONTEXT)).toEqual({
      id: 'msg_3',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5-20251001',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: scriptedThinkingSignature(3, 'hmm') },
        { type: 'text', text: 'Looking.' },
        { type: 'tool_use', id: 'toolu_3_0', name: 'lookup', input: { q: 'x' } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      stop_details: null,
      usage: {
        input_tokens: 10,
        output_tokens: 20,
        cache_read_input_tokens: 30,
        cache_creation_input_tokens: 40,
      },
    });
  });

  it('streams every frame with its event line, in the API order', () => {
    const turn: ScriptTurn = {
      reasoning: 'hmm',
      text: 'Two words',
      toolCalls: [{ name: 'lookup', arguments: '{"q": "x' }],
    };
    const stream = events(turn);
    for (const { event, data } of stream) expect(data.type).toBe(event);
    expect(stream.map(({ event }) => event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const deltas = stream
      .filter(({ event }) => event === 'content_block_delta')
      .map(({ data }) => data.delta);
    expect(deltas).toEqual([
      { type: 'thinking_delta', thinking: 'hmm' },
      { type: 'signature_delta', signature: scriptedThinkingSignature(3, 'hmm') },
      { type: 'text_delta', text: 'Two ' },
      { type: 'text_delta', text: 'words' },
      { type: 'input_json_delta', partial_json: '{"q"' },
      { type: 'input_json_delta', partial_json: ': "x' },
    ]);
  });

  it('ends the stream with the stop reason and the full usage', () => {
    const stream = events({
      text: 'cut',
      stopReason: 'max_tokens',
      usage: { input: 5, output: 7, cacheRead: 11 },
    });
    expect(stream.at(-2)!.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null, stop_details: null },
      usage: {
        input_tokens: 5,
        output_tokens: 7,
        cache_read_input_tokens: 11,
        cache_creation_input_tokens: 0,
      },
    });
  });

  it('uses scripted tool ids when given and generated ones otherwise', () => {
    const reply = anthropicProtocol.reply(
      {
        toolCalls: [
          { name: 'a', arguments: {}, id: 'toolu_mine' },
          { name: 'b', arguments: {} },
        ],
      },
      CONTEXT,
    ) as { content: Array<{ id: string }> };
    expect(reply.content.map((block) => block.id)).toEqual(['toolu_mine', scriptedToolUseId(3, 1)]);
  });

  it('answers errors in the Anthropic error shape', () => {
    expect(anthropicProtocol.errorBody(529, 'Overloaded')).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    expect(anthropicProtocol.errorBody(401, 'invalid x-api-key')).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    expect(anthropicProtocol.errorBody(500, 'boom')).toEqual({
      type: 'error',
      error: { type: 'api_error', message: 'boom' },
    });
  });
});

describe('anthropicProtocol through the SDK', () => {
  it('answers a non-streaming messages.create the SDK parses', async () => {
    const server = await ScriptedModelServer.start({
      handlers: [anthropicProtocol],
      turns: [{ text: 'Hi!', usage: { input: 4, output: 2, cacheRead: 8 } }],
    });
    try {
      const sdk = new Anthropic({
        apiKey: 'sk-ant-test',
        baseURL: server.baseUrl('anthropic'),
        maxRetries: 0,
      });
      const message = await sdk.messages.create({
        model: 'claude-haiku-4-5-20251001',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hello' }],
      });
      expect(message.content).toEqual([{ type: 'text', text: 'Hi!' }]);
      expect(message.stop_reason).toBe('end_turn');
      expect(message.usage.cache_read_input_tokens).toBe(8);
      expect(server.requests[0]!.stream).toBe(false);
      server.assertDone();
    } finally {
      await server.close();
    }
  });
});
