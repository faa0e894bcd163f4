import { describe, expect, it } from 'vitest';
import { finishDetail, mapFinishReason } from '../../../src/models/gemini/from-wire.ts';
import {
  GeminiStreamAccumulator,
  type GeminiChunk,
} from '../../../src/models/gemini/stream-accumulator.ts';
import { fixtureChunks, fixtureJson } from './read-fixture.ts';

const makeId = (position: number): string => `call_test_${position}`;

function accumulate(chunks: GeminiChunk[]): {
  accumulator: GeminiStreamAccumulator;
  deltas: string[];
} {
  const accumulator = new GeminiStreamAccumulator('requested-model', makeId);
  const deltas: string[] = [];
  for (const chunk of chunks) {
    const delta = accumulator.push(chunk);
    if (delta !== undefined) deltas.push(delta);
  }
  return { accumulator, deltas };
}

describe('Gemini stream accumulation (recorded streams)', () => {
  it('turns thoughts and parallel function calls into parts, the signature on the first call', () => {
    const { accumulator, deltas } = accumulate(fixtureChunks('stream-thoughts-parallel-calls.sse'));
    expect(accumulator.complete).toBe(true);
    expect(deltas).toEqual([]);
    expect(accumulator.response()).toEqual({
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'gemini',
            text: '**Planning the lookup**\n\nThe user wants the weather in two cities, so I will call get_weather for each.',
          },
          {
            type: 'tool_call',
            id: 'call_test_0',
            name: 'get_weather',
            arguments: '{"city":"Paris"}',
            state: {
              signature: 'CiQB0e2Kb7QnJ0sP1gq7c8eQm2x4lqW8pTqkP1KQ4dWm9w0Cw8YKbAHR7YpvR2vJmE3',
            },
          },
          {
            type: 'tool_call',
            id: 'call_test_1',
            name: 'get_weather',
            arguments: '{"city":"Oslo"}',
          },
        ],
      },
      stopReason: 'tool_use',
      usage: { input: 31, output: 156, cacheRead: 128, cacheWrite: 0, reasoning: 120 },
      model: 'gemini-2.5-flash',
      warnings: [],
    });
  });

  it('joins streamed text and keeps a signature that arrives on an empty closing part', () => {
    const { accumulator, deltas } = accumulate(fixtureChunks('stream-text-signature-last.sse'));
    expect(deltas).toEqual(['Paris is 18 °C', ' and Oslo could not be found.']);
    expect(accumulator.response()).toEqual({
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'text',
            text: 'Paris is 18 °C and Oslo could not be found.',
            state: { signature: 'EpYDCpMDAdHtim9kVZ3sq4m1GxU8bDq2wqV7nJ0oPp4mGkQ2Zs5t' },
          },
        ],
      },
      stopReason: 'end',
      usage: { input: 54, output: 110, cacheRead: 256, cacheWrite: 0, reasoning: 96 },
      model: 'gemini-3-flash-preview',
      warnings: [],
    });
  });

  it('never extends a part that already holds a signature', () => {
    const chunk = (text: string, thoughtSignature?: string): GeminiChunk => ({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ text, ...(thoughtSignature ? { thoughtSignature } : {}) }],
          },
        },
      ],
    });
    const { accumulator } = accumulate([
      chunk('one', 'sig-1'),
      chunk(' two'),
      chunk(' three', 'sig-3'),
    ]);
    expect(accumulator.response().message.parts).toEqual([
      { type: 'text', text: 'one', state: { signature: 'sig-1' } },
      { type: 'text', text: ' two three', state: { signature: 'sig-3' } },
    ]);
  });

  it('is incomplete until a chunk carries a finish reason', () => {
    const chunks = fixtureChunks('stream-text-signature-last.sse');
    expect(accumulate(chunks.slice(0, -1)).accumulator.complete).toBe(false);
  });

  it('treats a blocked prompt as a finished reply with stop reason blocked', () => {
    const { accumulator } = accumulate([
      {
        promptFeedback: { blockReason: 'SAFETY' as never, blockReasonMessage: 'Reasons' },
        usageMetadata: { promptTokenCount: 9 },
      },
    ]);
    expect(accumulator.complete).toBe(true);
    const response = accumulator.response();
    expect([response.stopReason, response.stopDetail]).toEqual(['blocked', 'SAFETY: Reasons']);
  });
});

describe('Gemini replies in one chunk (recorded response)', () => {
  it('keeps API call ids, maps MAX_TOKENS and warns about parts it cannot use', () => {
    const { accumulator } = accumulate([fixtureJson('response-call-ids-max-tokens.json')]);
    expect(accumulator.response()).toEqual({
      message: {
        role: 'assistant',
        parts: [
          { type: 'text', text: "I'll run a quick check first." },
          {
            type: 'tool_call',
            id: 'fc_7k2m9q',
            name: 'save_note',
            arguments: '{"title":"check","body":"4"}',
            state: { id: 'fc_7k2m9q', signature: 'Cr4BAdHtim8xq1Z2v0VqC7Yk3nB' },
          },
        ],
      },
      stopReason: 'max_tokens',
      usage: { input: 80, output: 512, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: 'gemini-3.1-pro-preview',
      warnings: ['ignored a Gemini reply part of kind "executableCode"'],
    });
  });
});

describe('mapFinishReason', () => {
  it.each([
    ['STOP', false, 'end'],
    ['STOP', true, 'tool_use'],
    ['MAX_TOKENS', false, 'max_tokens'],
    ['MAX_TOKENS', true, 'max_tokens'],
    ['SAFETY', false, 'safety'],
    ['PROHIBITED_CONTENT', false, 'safety'],
    ['SPII', false, 'safety'],
    ['MALFORMED_FUNCTION_CALL', false, 'malformed_tool_call'],
    ['RECITATION', false, 'other'],
    [undefined, false, 'other'],
  ] as const)('maps %s (calls: %s) to %s', (finishReason, hasToolCalls, expected) => {
    expect(mapFinishReason(finishReason, hasToolCalls)).toBe(expected);
  });
});

describe('finishDetail', () => {
  it('names the finish reason, the blocked categories and the finish message (Vertex sends it)', () => {
    expect(
      finishDetail({
        finishReason: 'SAFETY' as never,
        finishMessage: 'Response was blocked.',
        safetyRatings: [
          { category: 'HARM_CATEGORY_HARASSMENT' as never, blocked: true },
          { category: 'HARM_CATEGORY_HATE_SPEECH' as never, blocked: false },
          { category: 'HARM_CATEGORY_DANGEROUS_CONTENT' as never, blocked: true },
        ],
      }),
    ).toBe(
      'SAFETY (HARM_CATEGORY_HARASSMENT, HARM_CATEGORY_DANGEROUS_CONTENT): Response was blocked.',
    );
    expect(finishDetail({ finishReason: 'MALFORMED_FUNCTION_CALL' as never })).toBe(
      'MALFORMED_FUNCTION_CALL',
    );
  });
});
