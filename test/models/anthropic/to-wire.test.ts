import { describe, expect, it } from 'vitest';
import { toAnthropicRequest, usesAdaptiveThinking } from '../../../src/models/anthropic/to-wire.ts';
import { toAnthropicMessages } from '../../../src/models/anthropic/to-wire-messages.ts';
import type { Message, ModelRequest, ResolvedModel } from '../../../src/models/model-types.ts';
import { CONVERSATION, PDF_BASE64, PNG_BASE64, SONNET, WEATHER_TOOL } from './conversation.ts';
import { fixtureJson } from './read-fixture.ts';

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are a weather agent.',
    messages: CONVERSATION,
    tools: [WEATHER_TOOL],
    ...overrides,
  };
}

const UNCACHED: ResolvedModel = { ...SONNET, promptCaching: false };
const NOT_REASONING: ResolvedModel = { ...SONNET, reasoningCapable: false };

describe('toAnthropicRequest', () => {
  it('builds the recorded request for a multi-turn tool conversation', () => {
    expect(toAnthropicRequest(request({ reasoning: 'medium' }), SONNET)).toEqual(
      fixtureJson('request-multi-turn.json'),
    );
  });

  it('marks the last system block and the last block of the last user message when caching', () => {
    const body = toAnthropicRequest(request(), SONNET);
    expect(body.system).toEqual([
      { type: 'text', text: 'You are a weather agent.', cache_control: { type: 'ephemeral' } },
    ]);
    const marked = JSON.stringify(body).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(2);
    const last = body.messages[body.messages.length - 1]!;
    expect(Array.isArray(last.content) && last.content[last.content.length - 1]).toMatchObject({
      tool_use_id: 'toolu_oslo',
      cache_control: { type: 'ephemeral' },
    });
  });

  it('sends no cache markers when prompt caching is off', () => {
    const body = toAnthropicRequest(request(), UNCACHED);
    expect(JSON.stringify(body)).not.toContain('cache_control');
    expect(body.system).toEqual([{ type: 'text', text: 'You are a weather agent.' }]);
  });

  it('marks the last user message even when an assistant message follows it', () => {
    const messages: Message[] = [
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'prefill' }] },
    ];
    const body = toAnthropicRequest(request({ messages }), SONNET);
    expect(body.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'first' },
        { type: 'text', text: 'second', cache_control: { type: 'ephemeral' } },
      ],
    });
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'prefill' }],
    });
  });

  it('leaves out an empty system prompt and an empty tool list', () => {
    const body = toAnthropicRequest(request({ system: '', tools: [] }), SONNET);
    expect('system' in body).toBe(false);
    expect('tools' in body).toBe(false);
  });

  it('disables parallel tool use when parallel tool calls are off, and only then', () => {
    const off = toAnthropicRequest(request({ parallelToolCalls: false }), SONNET);
    expect(off.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect('tool_choice' in toAnthropicRequest(request(), SONNET)).toBe(false);
  });

  it('uses max_tokens 8192 and no thinking without reasoning', () => {
    const body = toAnthropicRequest(request(), SONNET);
    expect(body.max_tokens).toBe(8192);
    expect('thinking' in body).toBe(false);
  });

  it.each([
    ['low', 2048],
    ['medium', 8192],
    ['high', 24576],
  ] as const)(
    'maps reasoning %s to a thinking budget of %i with max_tokens budget + 8192',
    (level, budget) => {
      const body = toAnthropicRequest(request({ reasoning: level }), SONNET);
      expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget });
      expect(body.max_tokens).toBe(budget + 8192);
    },
  );

  it('keeps the caller maximum as the answer allowance on top of the budget', () => {
    expect(
      toAnthropicRequest(request({ reasoning: 'low', maxOutputTokens: 1000 }), SONNET).max_tokens,
    ).toBe(3048);
    expect(toAnthropicRequest(request({ maxOutputTokens: 1000 }), SONNET).max_tokens).toBe(1000);
  });

  it('ignores reasoning on a model that is not reasoning-capable', () => {
    const body = toAnthropicRequest(request({ reasoning: 'high' }), NOT_REASONING);
    expect('thinking' in body).toBe(false);
    expect(body.max_tokens).toBe(8192);
  });

  it('gives adaptive-only models adaptive thinking with the level as effort', () => {
    const opus: ResolvedModel = { ...SONNET, apiName: 'claude-opus-4-7' };
    const body = toAnthropicRequest(request({ reasoning: 'high' }), opus);
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(body.max_tokens).toBe(24576 + 8192);
  });

  it('caps max_tokens at the output limit of Opus 4 and 4.1', () => {
    const opus4: ResolvedModel = { ...SONNET, apiName: 'claude-opus-4-20250514' };
    const body = toAnthropicRequest(request({ reasoning: 'high' }), opus4);
    expect(body.max_tokens).toBe(32_000);
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 24576 });
    const opus41: ResolvedModel = { ...SONNET, apiName: 'claude-opus-4-1-20250805' };
    expect(toAnthropicRequest(request({ maxOutputTokens: 50_000 }), opus41).max_tokens).toBe(
      32_000,
    );
    const opus45: ResolvedModel = { ...SONNET, apiName: 'claude-opus-4-5-20251101' };
    expect(toAnthropicRequest(request({ reasoning: 'high' }), opus45).max_tokens).toBe(32_768);
  });

  it('knows which models take adaptive thinking', () => {
    expect(usesAdaptiveThinking('claude-opus-4-7')).toBe(true);
    expect(usesAdaptiveThinking('claude-opus-4-6')).toBe(true);
    expect(usesAdaptiveThinking('claude-sonnet-4-6')).toBe(false);
    expect(usesAdaptiveThinking('claude-opus-4-5-20251101')).toBe(false);
  });
});

describe('toAnthropicMessages', () => {
  it('sends redacted thinking back with its data', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'anthropic',
            text: '',
            state: { redacted_data: 'EmwKAhgBEgy3' },
          },
          { type: 'text', text: 'hello' },
        ],
      },
    ];
    expect(toAnthropicMessages(messages)[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' },
        { type: 'text', text: 'hello' },
      ],
    });
  });

  it('drops reasoning it cannot verify: another provider, or no signature', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'openai',
            text: 'x',
            state: { id: 'rs_1', encrypted_content: 'e', summary: [] },
          },
          { type: 'reasoning', provider: 'anthropic', text: 'unsigned' },
          { type: 'text', text: 'answer' },
        ],
      },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      { role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
    ]);
  });

  it('sends malformed tool arguments as an empty input object', () => {
    const messages: Message[] = [
      {
        role: 'assistant',
        parts: [{ type: 'tool_call', id: 'toolu_1', name: 'write_file', arguments: '{"path": "a' }],
      },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'write_file', input: {} }],
      },
    ]);
  });

  it('sends rich tool results as text, image and document blocks', () => {
    const messages: Message[] = [
      {
        role: 'user',
        parts: [
          {
            type: 'tool_result',
            callId: 'toolu_view',
            name: 'file_view',
            isError: false,
            content: [
              { type: 'text', text: 'chart.png and report.pdf' },
              { type: 'image', mediaType: 'image/png', data: PNG_BASE64 },
              { type: 'document', mediaType: 'application/pdf', data: PDF_BASE64 },
            ],
          },
        ],
      },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_view',
            is_error: false,
            content: [
              { type: 'text', text: 'chart.png and report.pdf' },
              {
                type: 'image',
                source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
              },
              {
                type: 'document',
                source: { type: 'base64', media_type: 'application/pdf', data: PDF_BASE64 },
              },
            ],
          },
        ],
      },
    ]);
  });

  it('puts tool results ahead of other content in a user message', () => {
    const messages: Message[] = [
      {
        role: 'user',
        parts: [{ type: 'tool_result', callId: 'a', name: 't', content: 'one', isError: false }],
      },
      { role: 'user', parts: [{ type: 'text', text: 'Also: hurry up.' }] },
      {
        role: 'user',
        parts: [{ type: 'tool_result', callId: 'b', name: 't', content: 'two', isError: false }],
      },
    ];
    const content = toAnthropicMessages(messages)[0]!.content as Array<{ type: string }>;
    expect(content.map((block) => block.type)).toEqual(['tool_result', 'tool_result', 'text']);
  });

  it('skips empty text and messages left without content', () => {
    const messages: Message[] = [
      { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { role: 'assistant', parts: [{ type: 'text', text: '' }] },
      { role: 'user', parts: [{ type: 'text', text: 'still there?' }] },
    ];
    expect(toAnthropicMessages(messages)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'still there?' },
        ],
      },
    ]);
  });
});
