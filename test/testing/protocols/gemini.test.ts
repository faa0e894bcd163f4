import { GoogleGenAI } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { geminiProtocol, scriptedThoughtSignature } from '../../../src/testing/protocols/gemini.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';

const CONTEXT = { turnIndex: 2, model: 'gemini-2.5-pro' };

function chunks(turn: ScriptTurn): Array<Record<string, unknown>> {
  return geminiProtocol.stream(turn, CONTEXT).map((frame) => {
    expect(frame.startsWith('data: ')).toBe(true);
    expect(frame.endsWith('\r\n\r\n')).toBe(true);
    return JSON.parse(frame.slice('data: '.length)) as Record<string, unknown>;
  });
}

function partsOf(chunk: Record<string, unknown>): unknown[] {
  return (chunk.candidates as Array<{ content: { parts: unknown[] } }>)[0]!.content.parts;
}

describe('geminiProtocol', () => {
  it('serves generateContent and streamGenerateContent for any model', () => {
    expect(geminiProtocol.accepts('POST', '/v1beta/models/gemini-2.5-flash:generateContent')).toBe(
      true,
    );
    expect(
      geminiProtocol.accepts('POST', '/v1beta/models/gemini-3-flash-preview:streamGenerateContent'),
    ).toBe(true);
    expect(geminiProtocol.accepts('GET', '/v1beta/models/gemini-2.5-flash:generateContent')).toBe(
      false,
    );
    expect(geminiProtocol.accepts('POST', '/v1beta/models/gemini-2.5-flash:countTokens')).toBe(
      false,
    );
    expect(geminiProtocol.accepts('POST', '/v1/messages')).toBe(false);
  });

  it('summarizes the model and stream flag from the path, and the texts from the body', () => {
    const body = {
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'question' }] },
        { role: 'model', parts: [{ functionCall: { name: 'lookup', args: { q: 'x' } } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'lookup', response: { output: '42' } } }],
        },
      ],
    };
    expect(
      geminiProtocol.summarize('/v1beta/models/gemini-2.5-pro:streamGenerateContent', body),
    ).toEqual({
      model: 'gemini-2.5-pro',
      stream: true,
      system: 'Be brief.',
      lastMessage: '{"output":"42"}',
      allText: 'question\nlookup {"q":"x"}\n{"output":"42"}',
    });
    expect(
      geminiProtocol.summarize('/v1beta/models/gemini-2.5-pro:generateContent', body).stream,
    ).toBe(false);
  });

  it('replies with thought, text and calls, the signature on the first call, and usage metadata', () => {
    const turn: ScriptTurn = {
      reasoning: 'hmm',
      text: 'Looking.',
      toolCalls: [
        { name: 'lookup', arguments: { q: 'x' } },
        { name: 'lookup', arguments: { q: 'y' }, id: 'fc_given' },
      ],
      usage: { input: 10, output: 20, cacheRead: 30, reasoning: 5 },
    };
    expect(geminiProtocol.reply(turn, CONTEXT)).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'hmm', thought: true },
              { text: 'Looking.' },
              {
                functionCall: { name: 'lookup', args: { q: 'x' } },
                thoughtSignature: scriptedThoughtSignature(2, 'hmm'),
              },
              { functionCall: { id: 'fc_given', name: 'lookup', args: { q: 'y' } } },
            ],
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      usageMetadata: {
        promptTokenCount: 40,
        candidatesTokenCount: 15,
        totalTokenCount: 60,
        cachedContentTokenCount: 30,
        thoughtsTokenCount: 5,
      },
      modelVersion: 'gemini-2.5-pro',
      responseId: 'resp_2',
    });
  });

  it('streams data frames without event lines, finishing in a closing chunk with usage', () => {
    const stream = chunks({
      text: 'Two words',
      toolCalls: [{ name: 'lookup', arguments: {} }],
      usage: { input: 3, output: 4 },
    });
    expect(stream.map(partsOf)).toEqual([
      [{ text: 'Two ' }],
      [{ text: 'words' }],
      [{ functionCall: { name: 'lookup', args: {} } }],
      [{ text: '' }],
    ]);
    expect(stream.slice(0, -1).every((chunk) => !('usageMetadata' in chunk))).toBe(true);
    const last = stream.at(-1)!;
    expect((last.candidates as Array<{ finishReason: string }>)[0]!.finishReason).toBe('STOP');
    expect(last.usageMetadata).toEqual({
      promptTokenCount: 3,
      candidatesTokenCount: 4,
      totalTokenCount: 7,
    });
    expect(geminiProtocol.stream({ text: 'x' }, CONTEXT).join('')).not.toContain('event:');
  });

  it("puts a streamed answer's signature on the empty closing part", () => {
    const stream = chunks({ reasoning: 'plan', text: 'Done.', stopReason: 'max_tokens' });
    expect(stream.map(partsOf)).toEqual([
      [{ text: 'plan', thought: true }],
      [{ text: 'Done.' }],
      [{ text: '', thoughtSignature: scriptedThoughtSignature(2, 'plan') }],
    ]);
    expect((stream.at(-1)!.candidates as Array<{ finishReason: string }>)[0]!.finishReason).toBe(
      'MAX_TOKENS',
    );
  });

  it('answers errors in the Google error shape', () => {
    expect(geminiProtocol.errorBody(429, 'Resource exhausted')).toEqual({
      error: { code: 429, message: 'Resource exhausted', status: 'RESOURCE_EXHAUSTED' },
    });
    expect(geminiProtocol.errorBody(503, 'overloaded')).toEqual({
      error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' },
    });
    expect(geminiProtocol.errorBody(529, 'x')).toEqual({
      error: { code: 529, message: 'x', status: 'UNKNOWN' },
    });
  });
});

describe('geminiProtocol through the SDK', () => {
  it('answers a non-streaming generateContent the SDK parses', async () => {
    const server = await ScriptedModelServer.start({
      handlers: [geminiProtocol],
      turns: [{ text: 'Hi!', toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] }],
    });
    try {
      const sdk = new GoogleGenAI({
        apiKey: 'AIza-test',
        httpOptions: { baseUrl: server.baseUrl('gemini') },
      });
      const response = await sdk.models.generateContent({
        model: 'gemini-2.5-flash',
        contents: 'hello',
      });
      expect(response.text).toBe('Hi!');
      expect(response.functionCalls).toEqual([{ name: 'lookup', args: { q: 'x' } }]);
      expect(server.requests[0]!.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
      expect(server.requests[0]!.stream).toBe(false);
      server.assertDone();
    } finally {
      await server.close();
    }
  });
});
