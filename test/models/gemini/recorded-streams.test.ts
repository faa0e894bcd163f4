/**
 * Recorded Gemini streams (test/fixtures/wire/gemini/README.md) replayed through the real
 * SDK over HTTP.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ask, closeHarnesses, GEMINI, recordedFrames, startHarness } from '../protocol-harness.ts';

afterEach(closeHarnesses);

async function replay(name: string) {
  const { client } = await startHarness(GEMINI, [{ frames: recordedFrames('gemini', name) }]);
  const deltas: string[] = [];
  const response = await client.generate(ask('Go on.', { onDelta: (text) => deltas.push(text) }));
  return { response, deltas };
}

describe('recorded Gemini streams', () => {
  it('a prompt blocked after some text is stop reason blocked, the text kept', async () => {
    const { response, deltas } = await replay('stream-prompt-blocked-after-text.sse');
    expect(deltas).toEqual(['Here is', 'how the', 'story goes']);
    expect(response.message.parts).toEqual([{ type: 'text', text: 'Here ishow thestory goes' }]);
    expect([response.stopReason, response.stopDetail]).toEqual(['blocked', 'SAFETY']);
    expect(response.usage).toEqual({
      input: 11,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 0,
    });
  });

  it('a prompt blocked outright is stop reason blocked with the block reason', async () => {
    const { response } = await replay('stream-prompt-blocked.sse');
    expect(response).toEqual({
      message: { role: 'assistant', parts: [] },
      stopReason: 'blocked',
      stopDetail: 'PROHIBITED_CONTENT',
      usage: { input: 14, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: 'gemini-2.5-flash',
      warnings: [],
    });
  });

  it('a reply stopped by the safety filter is stop reason safety naming the blocked category', async () => {
    const { response } = await replay('stream-finish-safety.sse');
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'Well, if you really want to know what I think of them' },
    ]);
    expect([response.stopReason, response.stopDetail]).toEqual([
      'safety',
      'SAFETY (HARM_CATEGORY_HARASSMENT)',
    ]);
  });

  it('a malformed function call is stop reason malformed_tool_call', async () => {
    const { response } = await replay('stream-malformed-function-call.sse');
    // The SDK drops the API's `finishMessage` for the Gemini API (it keeps it for Vertex).
    expect(response).toEqual({
      message: { role: 'assistant', parts: [] },
      stopReason: 'malformed_tool_call',
      stopDetail: 'MALFORMED_FUNCTION_CALL',
      usage: { input: 2731, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
      model: 'gemini-2.0-flash-lite',
      warnings: [],
    });
  });

  it('tool-use prompt tokens count as input', async () => {
    const { response } = await replay('stream-tool-use-prompt-tokens.sse');
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'The next full moon is on Friday.' },
    ]);
    // 23 prompt + 412 tool-use prompt; 15 candidates + 287 thoughts (total 737).
    expect(response.usage).toEqual({
      input: 435,
      output: 302,
      cacheRead: 0,
      cacheWrite: 0,
      reasoning: 287,
    });
    expect(response.stopReason).toBe('end');
  });

  it('a call whose arguments stream in several chunks is one call with all its arguments', async () => {
    const { response, deltas } = await replay('stream-function-call-partial-args.sse');
    expect(deltas).toEqual(['Checking both.']);
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'Checking both.' },
      {
        type: 'tool_call',
        id: expect.stringMatching(/^call_[0-9a-f]{8}_0$/) as string,
        name: 'get_weather',
        arguments: '{"city":"Oslo","days":3}',
        state: { signature: 'U29ydGllU2lnbmF0dXJlV2VhdGhlcg==' },
      },
      {
        type: 'tool_call',
        id: expect.stringMatching(/^call_[0-9a-f]{8}_1$/) as string,
        name: 'plan_trip',
        arguments: '{"stops":[{"city":"Bergen"},{"city":"Tromsø"}],"flexible":true,"note":null}',
      },
    ]);
    expect(response.stopReason).toBe('tool_use');
    expect(response.warnings).toEqual([]);
  });
});
