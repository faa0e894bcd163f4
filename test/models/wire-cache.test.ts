import { describe, expect, it } from 'vitest';
import { toAnthropicRequest } from '../../src/models/anthropic/to-wire.ts';
import { toAnthropicMessages } from '../../src/models/anthropic/to-wire-messages.ts';
import { toGeminiRequest } from '../../src/models/gemini/to-wire.ts';
import { toGeminiContents } from '../../src/models/gemini/to-wire-contents.ts';
import { toInputItems, toResponsesRequest } from '../../src/models/openai-responses/to-wire.ts';
import type {
  Message,
  ModelRequest,
  ResolvedModel,
  ToolDefinition,
} from '../../src/models/model-types.ts';

const task: Message = { role: 'user', parts: [{ type: 'text', text: 'Add up the figures.' }] };
const call: Message = {
  role: 'assistant',
  parts: [
    { type: 'text', text: 'Looking them up.' },
    {
      type: 'tool_call',
      id: 'call_1',
      name: 'lookup',
      arguments: '{"n":1}',
      state: { id: 'fc_api_1' },
    },
  ],
};
const result: Message = {
  role: 'user',
  parts: [{ type: 'tool_result', callId: 'call_1', name: 'lookup', content: '7', isError: false }],
};
const answer: Message = { role: 'assistant', parts: [{ type: 'text', text: 'The sum is 7.' }] };
const followUp: Message = { role: 'user', parts: [{ type: 'text', text: 'And doubled?' }] };

const lookup: ToolDefinition = {
  name: 'lookup',
  description: 'Looks up figure number n.',
  parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] },
};

/** The same conversation as new objects: what a conversion without any cache sees. */
const fresh = (messages: Message[]): Message[] => structuredClone(messages);

function model(provider: ResolvedModel['provider'], promptCaching = false): ResolvedModel {
  return {
    provider,
    config: 'main',
    key: 'model',
    apiName: 'model-1',
    promptCaching,
    reasoningCapable: false,
  };
}

function request(messages: Message[], tools: ToolDefinition[] = [lookup]): ModelRequest {
  return { system: 'You add.', messages, tools };
}

describe('wire forms converted once per message object', () => {
  it('OpenAI: a grown conversation reuses the items of the messages sent before', () => {
    const first = toInputItems([task, call, result]);
    const second = toInputItems([task, call, result, answer, followUp]);
    expect(second.slice(0, first.length).every((item, index) => item === first[index])).toBe(true);
    expect(second).toEqual(toInputItems(fresh([task, call, result, answer, followUp])));
  });

  it('OpenAI: an edited copy of a message is converted anew, the original stays as it was', () => {
    toInputItems([task, call, result]);
    const edited: Message = { role: 'user', parts: [{ type: 'text', text: 'Multiply instead.' }] };
    expect(toInputItems([edited, call, result])[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Multiply instead.' }],
    });
    expect(toInputItems([task])[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Add up the figures.' }],
    });
  });

  it('OpenAI, Anthropic and Gemini: a tool definition is converted once', () => {
    const openai = (tools: ToolDefinition[]) =>
      toResponsesRequest(model('openai'), request([task], tools)).tools![0];
    expect(openai([lookup])).toBe(openai([lookup]));
    const anthropic = (tools: ToolDefinition[]) =>
      toAnthropicRequest(request([task], tools), model('anthropic')).tools![0];
    expect(anthropic([lookup])).toBe(anthropic([lookup]));
    const gemini = (tools: ToolDefinition[]) =>
      toGeminiRequest(request([task], tools), model('gemini')).config!.tools![0];
    const declarations = (tools: ToolDefinition[]) =>
      (gemini(tools) as { functionDeclarations: unknown[] }).functionDeclarations[0];
    expect(declarations([lookup])).toBe(declarations([lookup]));
  });

  it('Anthropic: a grown conversation reuses the blocks of the messages sent before', () => {
    const first = toAnthropicMessages([task, call, result]);
    const second = toAnthropicMessages([task, call, result, answer, followUp]);
    expect(second[1]!.content[1]).toBe(first[1]!.content[1]);
    expect(second).toEqual(toAnthropicMessages(fresh([task, call, result, answer, followUp])));
  });

  it('Anthropic: merging same-role messages and cache markers leave the cached blocks alone', () => {
    toAnthropicMessages([task, followUp]);
    expect(toAnthropicMessages([task])).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Add up the figures.' }] },
    ]);
    const caching = model('anthropic', true);
    toAnthropicRequest(request([task]), caching);
    const later = toAnthropicRequest(request([task, answer, followUp]), caching);
    expect(later.messages[0]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'Add up the figures.' }],
    });
    expect(later.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'text', text: 'And doubled?', cache_control: { type: 'ephemeral' } }],
    });
  });

  it('Gemini: a grown conversation reuses the parts of the messages sent before', () => {
    const first = toGeminiContents([task, call, result]);
    const second = toGeminiContents([task, call, result, answer, followUp]);
    expect(second[1]!.parts![1]).toBe(first[1]!.parts![1]);
    expect(second[2]!.parts![0]).toBe(first[2]!.parts![0]);
    expect(second).toEqual(toGeminiContents(fresh([task, call, result, answer, followUp])));
  });

  it("Gemini: a tool result quotes its call's API id as the conversation now gives it", () => {
    const quoted = toGeminiContents([task, call, result])[2]!.parts![0];
    expect(quoted).toEqual({
      functionResponse: { id: 'fc_api_1', name: 'lookup', response: { output: '7' } },
    });
    // A forked conversation whose copy of the call carries no API id: the same result message.
    const callWithoutId: Message = {
      role: 'assistant',
      parts: [{ type: 'tool_call', id: 'call_1', name: 'lookup', arguments: '{"n":1}' }],
    };
    expect(toGeminiContents([task, callWithoutId, result])[2]!.parts![0]).toEqual({
      functionResponse: { name: 'lookup', response: { output: '7' } },
    });
    expect(toGeminiContents([task, call, result])[2]!.parts![0]).toEqual(quoted);
  });
});
