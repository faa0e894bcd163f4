/** The scripted server's recorded frames and scripted refusals, seen through the real SDKs. */
import { afterEach, describe, expect, it } from 'vitest';
import { splitSseFrames } from '../../src/testing/respond.ts';
import {
  ANTHROPIC,
  ask,
  closeHarnesses,
  GEMINI,
  OPENAI,
  startHarness,
} from '../models/protocol-harness.ts';

afterEach(closeHarnesses);

describe('splitSseFrames', () => {
  it('splits after each blank line, keeping line endings and a last unterminated frame', () => {
    expect(splitSseFrames('event: a\ndata: 1\n\ndata: 2\r\n\r\ndata: 3')).toEqual([
      'event: a\ndata: 1\n\n',
      'data: 2\r\n\r\n',
      'data: 3',
    ]);
    expect(splitSseFrames('')).toEqual([]);
  });
});

describe('a turn with recorded frames', () => {
  it('is sent verbatim, byte for byte', async () => {
    const frames = ['data: {"a":1}\r\n\r\n', 'data: {"b":2}\r\n\r\n'];
    const { server } = await startHarness(OPENAI, [{ frames }]);
    const response = await fetch(`${server.baseUrl('openai')}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', input: 'hi', stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(frames.join(''));
  });
});

describe("truncate: 'mid-frame'", () => {
  it('sends the leading frames whole, then half of the next, then ends', async () => {
    const frames = [
      'data: {"a":1}\n\n',
      'data: {"b":2}\n\n',
      'data: {"c":3}\n\n',
      'data: {"d":4}\n\n',
    ];
    const { server } = await startHarness(OPENAI, [{ frames, truncate: 'mid-frame' }]);
    const response = await fetch(`${server.baseUrl('openai')}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-5', input: 'hi', stream: true }),
    });
    expect(await response.text()).toBe('data: {"a":1}\n\ndata: {"b":2}\n\ndata: {');
  });
});

describe('scripted refusals', () => {
  it.each([
    { protocolCase: OPENAI, stopReason: 'refusal', detail: 'No, I will not.' },
    { protocolCase: ANTHROPIC, stopReason: 'refusal', detail: 'No, I will not.' },
    // The Gemini SDK drops `finishMessage` for the Gemini API: the finish reason is the detail.
    { protocolCase: GEMINI, stopReason: 'safety', detail: 'SAFETY' },
  ])(
    '$protocolCase.name answers in its own refusal form',
    async ({ protocolCase, stopReason, detail }) => {
      const { client } = await startHarness(protocolCase, [
        { stopReason: 'refusal', text: 'No, I will not.' },
      ]);
      const response = await client.generate(ask('Do the bad thing.'));
      expect([response.stopReason, response.stopDetail]).toEqual([stopReason, detail]);
    },
  );
});
