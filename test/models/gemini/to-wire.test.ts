import { describe, expect, it } from 'vitest';
import { toFunctionDeclaration, toGeminiRequest } from '../../../src/models/gemini/to-wire.ts';
import { toGeminiContents } from '../../../src/models/gemini/to-wire-contents.ts';
import type { Message, ModelRequest, ResolvedModel } from '../../../src/models/model-types.ts';
import { CONVERSATION, FLASH, PDF_BASE64, PNG_BASE64, WEATHER_TOOL } from './conversation.ts';
import { fixtureJson } from './read-fixture.ts';

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a weather agent.',
    messages: CONVERSATION,
    tools: [WEATHER_TOOL],
    ...overrides,
  };
}

describe('toGeminiRequest', () => {
  it('builds the recorded request for a multi-turn tool conversation', () => {
    expect(toGeminiRequest(request({ reasoning: 'medium' }), FLASH)).toEqual(
      fixtureJson('request-multi-turn.json'),
    );
  });

  it.each([
    ['low', 2048],
    ['medium', 8192],
    ['high', 24576],
  ] as const)('maps reasoning %s to thinkingBudget %i with thoughts included', (level, budget) => {
    expect(toGeminiRequest(request({ reasoning: level }), FLASH).config?.thinkingConfig).toEqual({
      thinkingBudget: budget,
      includeThoughts: true,
    });
  });

  it('sends no thinking config without reasoning or for a model that is not reasoning-capable', () => {
    const plain: ResolvedModel = { ...FLASH, apiName: 'gemini-2.0-flash', reasoningCapable: false };
    expect(toGeminiRequest(request(), FLASH).config?.thinkingConfig).toBeUndefined();
    expect(
      toGeminiRequest(request({ reasoning: 'high' }), plain).config?.thinkingConfig,
    ).toBeUndefined();
  });

  it('leaves out an empty system prompt and an empty tool list, and passes maxOutputTokens', () => {
    expect(
      toGeminiRequest(request({ system: '', tools: [], maxOutputTokens: 300 }), FLASH).config,
    ).toEqual({
      maxOutputTokens: 300,
    });
  });

  it('declares a tool without parameters when its schema has no properties', () => {
    expect(
      toFunctionDeclaration({
        name: 'list_tasks',
        description: 'List tasks.',
        parameters: { type: 'object' },
      }),
    ).toEqual({
      name: 'list_tasks',
      description: 'List tasks.',
    });
  });
});

describe('toGeminiContents', () => {
  it('sends text and thought signatures back exactly as received', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'gemini',
            text: 'thinking',
            state: { signature: 'sig-thought' },
          },
          { type: 'text', text: 'Answer.', state: { signature: 'sig-text' } },
          { type: 'text', text: '', state: { signature: 'sig-empty' } },
        ],
      },
    ];
    expect(toGeminiContents(messages)).toEqual([
      {
        role: 'model',
        parts: [
          { text: 'thinking', thought: true, thoughtSignature: 'sig-thought' },
          { text: 'Answer.', thoughtSignature: 'sig-text' },
          { text: '', thoughtSignature: 'sig-empty' },
        ],
      },
    ]);
  });

  it('quotes API call ids back on calls and their responses', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        parts: [
          {
            type: 'tool_call',
            id: 'fc_7k2m9q',
            name: 'save_note',
            arguments: '{"title":"x"}',
            state: { id: 'fc_7k2m9q' },
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'fc_7k2m9q',
            name: 'save_note',
            content: 'saved',
            isError: false,
          },
        ],
      },
    ];
    expect(toGeminiContents(messages)).toEqual([
      {
        role: 'model',
        parts: [{ functionCall: { id: 'fc_7k2m9q', name: 'save_note', args: { title: 'x' } } }],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: { id: 'fc_7k2m9q', name: 'save_note', response: { output: 'saved' } },
          },
        ],
      },
    ]);
  });

  it('sends rich tool results as a text response followed by inline images and PDFs', () => {
    const messages: Message[] = [
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'call_1',
            name: 'file_view',
            isError: false,
            content: [
              { type: 'text', text: 'chart.png' },
              { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
              { type: 'text', text: 'report.pdf' },
              { type: 'document', mediaType: 'application/pdf', data: PDF_BASE64 },
            ],
          },
          {
            type: 'tool_result',
            callId: 'call_2',
            name: 'get_weather',
            content: 'rain',
            isError: false,
          },
        ],
      },
    ];
    expect(toGeminiContents(messages)).toEqual([
      {
        role: 'user',
        parts: [
          {
            functionResponse: { name: 'file_view', response: { output: 'chart.png\nreport.pdf' } },
          },
          { functionResponse: { name: 'get_weather', response: { output: 'rain' } } },
          { inlineData: { mimeType: 'image/png', data: PNG_BASE64 } },
          { inlineData: { mimeType: 'application/pdf', data: PDF_BASE64 } },
        ],
      },
    ]);
  });

  it("drops another provider's reasoning and empty unsigned text, and merges same-role messages", () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'a' }] },
      { role: 'user', parts: [{ type: 'text', text: 'b' }] },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', provider: 'anthropic', text: 'x', state: { signature: 's' } },
          { type: 'text', text: '' },
        ],
      },
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'c', name: 't', arguments: 'not json' }],
      },
    ];
    expect(toGeminiContents(messages)).toEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
      { role: 'model', parts: [{ functionCall: { name: 't', args: {} } }] },
    ]);
  });
});
