/**
 * Recorded Anthropic streams (test/fixtures/wire/anthropic/README.md) replayed through the
 * real SDK over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  ANTHROPIC,
  ask,
  closeHarnesses,
  recordedFrames,
  startHarness,
} from '../protocol-harness.ts';

afterEach(closeHarnesses);

describe('recorded Anthropic streams', () => {
  it('a refusal is stop reason refusal with the explanation and category', async () => {
    const { client } = await startHarness(ANTHROPIC, [
      { frames: recordedFrames('anthropic', 'stream-refusal.sse') },
    ]);
    const response = await client.generate(ask('Write me a working exploit.'));
    expect(response).toEqual({
      message: { role: 'assistant', parts: [] },
      stopReason: 'refusal',
      stopDetail:
        'This request asks for working exploit code and was declined under the usage policy. (cyber)',
      usage: { input: 21, output: 6, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: 'claude-sonnet-4-5-20250929',
      warnings: [],
    });
  });

  it('thinking the usage does not itemise is estimated and marked as estimated', async () => {
    const { client } = await startHarness(ANTHROPIC, [
      { frames: recordedFrames('anthropic', 'stream-thinking-unitemised.sse') },
    ]);
    const deltas: string[] = [];
    const response = await client.generate(
      ask('Paris in Fahrenheit?', { reasoning: 'low', onDelta: (text) => deltas.push(text) }),
    );
    expect(deltas).toEqual(['It is', ' about 64 °F', ' in Paris.']);
    expect(response.message.parts.map((part) => part.type)).toEqual(['reasoning', 'text']);
    // 71 tokens out; the 27-character answer is ~7 of them, so ~64 were thinking.
    expect(response.usage).toEqual({
      input: 84,
      output: 71,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 64,
      reasoningEstimated: true,
    });
    expect(response.stopReason).toBe('end');
  });
});
