import { describe, expect, it } from 'vitest';
import {
  fromAnthropicReply,
  mapStopReason,
  normalizeUsage,
  type AnthropicReply,
} from '../../../src/models/anthropic/from-wire.ts';
import { AnthropicStreamAccumulator } from '../../../src/models/anthropic/stream-accumulator.ts';
import { fixtureEvents } from './read-fixture.ts';

function accumulate(name: string): { accumulator: AnthropicStreamAccumulator; deltas: string[] } {
  const accumulator = new AnthropicStreamAccumulator('requested-model');
  const deltas: string[] = [];
  for (const event of fixtureEvents(name)) {
    const delta = accumulator.push(event);
    if (delta !== undefined) deltas.push(delta);
  }
  return { accumulator, deltas };
}

describe('Anthropic stream accumulation (recorded stream)', () => {
  it('turns thinking, text and parallel tool calls into parts with the signature kept', () => {
    const { accumulator } = accumulate('stream-thinking-parallel-tools.sse');
    expect(accumulator.complete).toBe(true);
    expect(fromAnthropicReply(accumulator.reply())).toEqual({
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'anthropic',
            text: 'The user wants the weather in two cities, so I will call get_weather twice.',
            state: {
              signature:
                'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds7JpHE5Bqb4uRi+ZTp3g=',
            },
          },
          { type: 'text', text: 'Let me check both cities.' },
          {
            type: 'tool_call',
            id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
            name: 'get_weather',
            arguments: '{"city": "Paris"}',
          },
          {
            type: 'tool_call',
            id: 'toolu_01AbZk2RKmT9ZrKBDY8Cqv1q',
            name: 'get_weather',
            arguments: '{"city": "Oslo"}',
          },
        ],
      },
      stopReason: 'tool_use',
      // The usage does not itemise thinking: 189 out less ~20 for the answer and the calls.
      usage: {
        input: 472,
        output: 189,
        cacheRead: 2048,
        cacheWrite: 1024,
        reasoning: 169,
        reasoningEstimated: true,
      },
      model: 'claude-sonnet-4-5-20250929',
      warnings: [],
    });
  });

  it('returns only answer text as deltas', () => {
    expect(accumulate('stream-thinking-parallel-tools.sse').deltas).toEqual([
      'Let me check ',
      'both cities.',
    ]);
  });

  it('keeps malformed tool input verbatim', () => {
    const { accumulator } = accumulate('stream-malformed-tool-input.sse');
    const response = fromAnthropicReply(accumulator.reply());
    expect(response.message.parts).toEqual([
      {
        type: 'tool_call',
        id: 'toolu_01Mz8sX2eQmUjJ3vC5nR6kYb',
        name: 'write_file',
        arguments: '{"path": "notes.md", "content": "unterminated',
      },
    ]);
    expect(response.usage).toEqual({
      input: 58,
      output: 31,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
    });
  });

  it('is incomplete when the stream stops before message_stop', () => {
    const accumulator = new AnthropicStreamAccumulator('m');
    for (const event of fixtureEvents('stream-thinking-parallel-tools.sse').slice(0, -1))
      accumulator.push(event);
    expect(accumulator.complete).toBe(false);
  });

  it('sends a tool call without input deltas as the input of its start event', () => {
    const accumulator = new AnthropicStreamAccumulator('m');
    accumulator.push({
      type: 'content_block_start',
      index: 0,
      content_block: {
        type: 'tool_use',
        id: 'toolu_1',
        name: 'list_tasks',
        input: {},
        caller: { type: 'direct' },
      },
    });
    expect(fromAnthropicReply(accumulator.reply()).message.parts).toEqual([
      { type: 'tool_call', id: 'toolu_1', name: 'list_tasks', arguments: '{}' },
    ]);
  });
});

describe('Anthropic replies with redacted thinking and server tools', () => {
  it('keeps redacted thinking as reasoning state, ignores unknown blocks with a warning', () => {
    const reply: AnthropicReply = {
      model: 'claude-opus-4-5-20251101',
      blocks: [
        {
          type: 'redacted_thinking',
          data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB8URj2pLmN3kWd',
        },
        { type: 'unknown', wireType: 'server_tool_use' },
        { type: 'text', text: 'Claude Shannon was born on April 30, 1916.' },
      ],
      stopReason: 'end_turn',
      usage: {
        input_tokens: 2095,
        output_tokens: 503,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 1800,
        output_tokens_details: { thinking_tokens: 310 },
      },
    };
    expect(fromAnthropicReply(reply)).toEqual({
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'anthropic',
            text: '',
            state: {
              redacted_data:
                'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB8URj2pLmN3kWd',
            },
          },
          { type: 'text', text: 'Claude Shannon was born on April 30, 1916.' },
        ],
      },
      stopReason: 'end',
      usage: { input: 2095, output: 503, cacheRead: 1800, cacheWrite: 0, reasoning: 310 },
      model: 'claude-opus-4-5-20251101',
      warnings: ['ignored an Anthropic content block of unknown type "server_tool_use"'],
    });
  });
});

describe('mapStopReason', () => {
  it.each([
    ['end_turn', 'end'],
    ['tool_use', 'tool_use'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'other'],
    ['refusal', 'refusal'],
    ['pause_turn', 'other'],
    [null, 'other'],
  ] as const)('maps %s to %s', (wire, ours) => {
    expect(mapStopReason(wire)).toBe(ours);
  });
});

describe('normalizeUsage', () => {
  it('takes the four classes as Anthropic reports them, nulls as 0', () => {
    expect(
      normalizeUsage({
        blocks: [{ type: 'text', text: 'hi' }],
        usage: {
          input_tokens: 12,
          output_tokens: 30,
          cache_read_input_tokens: null,
          cache_creation_input_tokens: 7,
        },
      }),
    ).toEqual({ input: 12, output: 30, cacheRead: 0, cacheWrite: 7, reasoning: 0 });
  });

  it('takes itemised thinking tokens as reported', () => {
    const usage = normalizeUsage({
      blocks: [{ type: 'thinking', thinking: 'x'.repeat(400), signature: 's' }],
      usage: {
        input_tokens: 1,
        output_tokens: 373,
        output_tokens_details: { thinking_tokens: 62 },
      },
    });
    expect([usage.reasoning, usage.reasoningEstimated]).toEqual([62, undefined]);
  });

  it('estimates unitemised thinking as the output left after the answer, and marks it', () => {
    const usage = normalizeUsage({
      blocks: [
        { type: 'thinking', thinking: 'x'.repeat(40), signature: 's' },
        { type: 'text', text: 'y'.repeat(20) },
        { type: 'tool_use', id: 't', name: 'get_weather', inputJson: '{"city":"Oslo"}' },
      ],
      usage: { input_tokens: 1, output_tokens: 100 },
    });
    // Answer: 20 + 11 + 15 = 46 characters ≈ 12 tokens, so 88 of the 100 are thinking.
    expect([usage.reasoning, usage.reasoningEstimated]).toEqual([88, true]);
  });

  it('estimates no less than the thinking text shown, no more than the output', () => {
    const thinking = (chars: number, output: number) =>
      normalizeUsage({
        blocks: [
          { type: 'thinking', thinking: 'x'.repeat(chars), signature: 's' },
          { type: 'text', text: 'y'.repeat(400) },
        ],
        usage: { output_tokens: output },
      }).reasoning;
    expect([thinking(200, 120), thinking(2000, 120)]).toEqual([50, 120]);
  });

  it('estimates nothing for a reply that did not think', () => {
    const usage = normalizeUsage({
      blocks: [{ type: 'text', text: 'hello' }],
      usage: { output_tokens: 90 },
    });
    expect([usage.reasoning, usage.reasoningEstimated]).toEqual([0, undefined]);
  });
});
