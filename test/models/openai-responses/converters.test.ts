import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { ProviderError } from '../../../src/base/errors.ts';
import { fromResponse } from '../../../src/models/openai-responses/from-wire.ts';
import { collectResponse } from '../../../src/models/openai-responses/stream.ts';
import { toResponsesRequest } from '../../../src/models/openai-responses/to-wire.ts';
import { TruncatedStreamError } from '../../../src/models/provider-errors.ts';
import type { ModelRequest, ResolvedModel } from '../../../src/models/model-types.ts';

const fixtures = new URL('../../fixtures/wire/openai/', import.meta.url);
const readJson = <T>(name: string): T =>
  JSON.parse(readFileSync(new URL(name, fixtures), 'utf8')) as T;

async function* eventsOf(name: string): AsyncGenerator<ResponseStreamEvent> {
  const lines = readFileSync(new URL(name, fixtures), 'utf8')
    .split('\n')
    .filter((line) => line !== '');
  for (const line of lines) yield JSON.parse(line) as ResponseStreamEvent;
}

describe('toResponsesRequest', () => {
  it('builds the recorded request body for a tool conversation', () => {
    const fixture = readJson<{ model: ResolvedModel; request: ModelRequest; wire: unknown }>(
      'tool-conversation.request.json',
    );
    expect(toResponsesRequest(fixture.model, fixture.request)).toEqual(fixture.wire);
  });

  it('keeps the prefix byte-identical when the conversation grows', () => {
    const fixture = readJson<{ model: ResolvedModel; request: ModelRequest }>(
      'tool-conversation.request.json',
    );
    const shorter = { ...fixture.request, messages: fixture.request.messages.slice(0, 3) };
    const first = JSON.stringify(toResponsesRequest(fixture.model, shorter).input);
    const second = JSON.stringify(toResponsesRequest(fixture.model, fixture.request).input);
    expect(second.startsWith(first.slice(0, -1))).toBe(true);
  });

  it('asks for one tool call per reply when parallel tool calls are off, and only then', () => {
    const fixture = readJson<{ model: ResolvedModel; request: ModelRequest }>(
      'tool-conversation.request.json',
    );
    const off = { ...fixture.request, parallelToolCalls: false };
    expect(toResponsesRequest(fixture.model, off).parallel_tool_calls).toBe(false);
    expect('parallel_tool_calls' in toResponsesRequest(fixture.model, fixture.request)).toBe(false);
  });
});

describe('fromResponse', () => {
  it('converts reasoning and text with usage from a recorded response', () => {
    const response = fromResponse(
      readJson<Response>('reasoning-text.response.json'),
      'openai',
      'gpt-5-mini',
    );
    expect(response).toEqual({
      message: {
        role: 'assistant',
        parts: [
          {
            type: 'reasoning',
            provider: 'openai',
            text: '**Checking the arithmetic**\n\nThe user wants 17 × 23; that is 391.\n\n**Answering briefly**\n\nOne line is enough.',
            state: {
              id: 'rs_68c1a0f2d4e08190b1e4c7a9f2a6d3e5',
              summary: [
                {
                  type: 'summary_text',
                  text: '**Checking the arithmetic**\n\nThe user wants 17 × 23; that is 391.',
                },
                { type: 'summary_text', text: '**Answering briefly**\n\nOne line is enough.' },
              ],
              encrypted_content: expect.stringMatching(/^gAAAAABp.*==$/),
            },
          },
          { type: 'text', text: '17 × 23 = 391' },
        ],
      },
      stopReason: 'end',
      usage: { input: 230, output: 412, cacheRead: 1920, cacheWrite: 0, reasoning: 384 },
      model: 'gpt-5-mini-2025-08-07',
      warnings: [],
    });
  });

  it('ignores unknown output items with a warning', () => {
    const response = fromResponse(
      readJson<Response>('unknown-item.response.json'),
      'openai',
      'gpt-4.1',
    );
    expect(response.message.parts).toEqual([{ type: 'text', text: 'Rainy.' }]);
    expect(response.warnings).toEqual(['ignored an output item of unknown type "web_search_call"']);
  });
});

describe('collectResponse', () => {
  it('streams text deltas and returns the completed response with both tool calls', async () => {
    const deltas: string[] = [];
    let events = 0;
    const final = await collectResponse(eventsOf('parallel-tool-calls.events.jsonl'), {
      provider: 'openai',
      onDelta: (text) => deltas.push(text),
      onEvent: () => events++,
    });
    expect(deltas).toEqual(['Checking', ' both', ' cities', '.']);
    expect(events).toBe(24);
    const response = fromResponse(final, 'openai', 'gpt-4.1');
    expect(response.stopReason).toBe('tool_use');
    expect(response.message.parts).toEqual([
      { type: 'text', text: 'Checking both cities.' },
      {
        type: 'tool_call',
        id: 'call_Qm3kT8vXy1LpN0aZ',
        name: 'get_weather',
        arguments: '{"city":"Oslo"}',
      },
      {
        type: 'tool_call',
        id: 'call_Hr7wE2sJc9UbF4dK',
        name: 'get_weather',
        arguments: '{"city":"Bergen"}',
      },
    ]);
    expect(response.usage).toEqual({
      input: 62,
      output: 57,
      cacheRead: 256,
      cacheWrite: 0,
      reasoning: 0,
    });
  });

  it('treats response.incomplete as final and maps max_output_tokens to max_tokens', async () => {
    const final = await collectResponse(eventsOf('incomplete-max-tokens.events.jsonl'), {
      provider: 'openai',
    });
    const response = fromResponse(final, 'openai', 'gpt-5-mini');
    expect([response.stopReason, response.usage.reasoning]).toEqual(['max_tokens', 13]);
    expect(response.message.parts).toEqual([{ type: 'text', text: 'The history of' }]);
  });

  it('fails retryably when the stream ends without its final event', async () => {
    await expect(
      collectResponse(eventsOf('truncated.events.jsonl'), { provider: 'openai' }),
    ).rejects.toBeInstanceOf(TruncatedStreamError);
  });

  it('turns response.failed with server_error into a retryable error', async () => {
    const error = await collectResponse(eventsOf('failed-server-error.events.jsonl'), {
      provider: 'openai',
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect([(error as ProviderError).retryable, (error as ProviderError).message]).toEqual([
      true,
      'The server had an error while processing your request. Sorry about that!',
    ]);
  });
});

describe('stop reasons of declined responses', () => {
  const response = (fields: Partial<Response>): Response =>
    ({ status: 'completed', output: [], usage: null, model: 'gpt-4o', ...fields }) as Response;

  it('maps an incomplete response cut by the content filter to safety', () => {
    const converted = fromResponse(
      response({ status: 'incomplete', incomplete_details: { reason: 'content_filter' } }),
      'openai',
      'gpt-4o',
    );
    expect([converted.stopReason, converted.stopDetail]).toEqual(['safety', 'content_filter']);
  });

  it('maps a refusal part to refusal even beside a tool call', () => {
    const converted = fromResponse(
      response({
        output: [
          {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'refusal', refusal: 'No.' }],
          },
          {
            id: 'fc_1',
            type: 'function_call',
            call_id: 'call_1',
            name: 'get_weather',
            arguments: '{}',
          },
        ],
      }),
      'openai',
      'gpt-4o',
    );
    expect([converted.stopReason, converted.stopDetail]).toEqual(['refusal', 'No.']);
  });
});

describe('streamed items the final response leaves out', () => {
  async function* stream(events: unknown[]): AsyncGenerator<ResponseStreamEvent> {
    for (const event of events) yield event as ResponseStreamEvent;
  }
  const completed = (output: unknown[]) => ({
    type: 'response.completed',
    response: { status: 'completed', output, usage: null, model: 'm' },
  });
  const call = {
    id: 'fc_1',
    type: 'function_call',
    status: 'completed',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Oslo"}',
  };

  it('drops an unfinished call or reasoning item, keeps a finished one', async () => {
    const final = await collectResponse(
      stream([
        {
          type: 'response.output_item.added',
          output_index: 0,
          item: { ...call, id: 'fc_0', arguments: '' },
        },
        {
          type: 'response.output_item.added',
          output_index: 1,
          item: { id: 'rs_1', type: 'reasoning', summary: [] },
        },
        { type: 'response.output_item.added', output_index: 2, item: call },
        { type: 'response.output_item.done', output_index: 2, item: call },
        completed([]),
      ]),
      { provider: 'openai' },
    );
    expect(final.output).toEqual([call]);
  });

  it('returns the final output as it is when it lacks nothing', async () => {
    const output = [call];
    const final = await collectResponse(
      stream([
        { type: 'response.output_item.added', output_index: 0, item: { ...call, arguments: '' } },
        { type: 'response.output_item.done', output_index: 0, item: call },
        completed(output),
      ]),
      { provider: 'openai' },
    );
    expect(final.output).toBe(output);
  });

  it("returns the terminal event's response itself when it lacks nothing (no copy per reply)", async () => {
    const terminal = completed([call]);
    const final = await collectResponse(
      stream([
        { type: 'response.output_item.added', output_index: 0, item: { ...call, arguments: '' } },
        { type: 'response.output_item.done', output_index: 0, item: call },
        terminal,
      ]),
      { provider: 'openai' },
    );
    expect(final).toBe(terminal.response);
  });
});
