/**
 * The behaviour every model client must show, run against each protocol through its real
 * SDK and the scripted server: conversations, tool calls, reasoning, usage, streaming, stop
 * reasons. Wire details of one protocol live in that protocol's own client test.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Part } from '../../../src/models/model-types.ts';
import { defaultProtocolHandlers } from '../../../src/testing/protocols/index.ts';
import {
  ask,
  closeHarnesses,
  PROTOCOL_CASES,
  startHarness,
  toolResults,
} from '../protocol-harness.ts';

afterEach(closeHarnesses);

/** Every opaque string a reply's parts carry (signatures, encrypted reasoning, call ids). */
function stateStrings(parts: Part[]): string[] {
  return parts.flatMap((part) =>
    'state' in part && part.state !== undefined
      ? Object.values(part.state).filter((value): value is string => typeof value === 'string')
      : [],
  );
}

describe.each(PROTOCOL_CASES)('$name client contract: conversations', (protocolCase) => {
  it('runs a multi-turn tool conversation with parallel calls', async () => {
    const { client, server } = await startHarness(protocolCase, [
      {
        text: 'Checking both.',
        toolCalls: [
          { name: 'get_weather', arguments: { city: 'Paris' } },
          { name: 'get_weather', arguments: { city: 'Oslo' } },
        ],
      },
      {
        text: 'Paris 18 °C, Oslo unknown.',
        match: { lastMessageContains: 'city not found', contains: '18 °C' },
      },
    ]);
    const question = ask('Weather in Paris and Oslo?');
    const first = await client.generate(question);
    expect(first.stopReason).toBe('tool_use');
    expect(
      first.message.parts.map((part) =>
        part.type === 'tool_call' ? [part.name, part.arguments] : [part.type],
      ),
    ).toEqual([['text'], ['get_weather', '{"city":"Paris"}'], ['get_weather', '{"city":"Oslo"}']]);
    const ids = first.message.parts.flatMap((part) => (part.type === 'tool_call' ? [part.id] : []));
    expect(new Set(ids).size).toBe(2);
    const messages = [
      ...question.messages,
      first.message,
      toolResults(first.message, ['18 °C', 'city not found'], [1]),
    ];
    const second = await client.generate({ ...question, messages });
    expect([second.stopReason, second.message.parts]).toEqual([
      'end',
      [{ type: 'text', text: 'Paris 18 °C, Oslo unknown.' }],
    ]);
    server.assertDone();
  });

  it('sends reasoning state back exactly as received', async () => {
    const { client, server } = await startHarness(protocolCase, [
      {
        reasoning: 'Two cities, two calls.',
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
      },
      { text: 'Sunny.' },
    ]);
    const question = ask('Weather in Paris?', { reasoning: 'low' });
    const first = await client.generate(question);
    expect(first.message.parts[0]).toMatchObject({
      type: 'reasoning',
      provider: protocolCase.model.provider,
      text: 'Two cities, two calls.',
    });
    const state = stateStrings(first.message.parts);
    expect(state.length).toBeGreaterThan(0);
    const messages = [...question.messages, first.message, toolResults(first.message, ['sunny'])];
    await client.generate({ ...question, messages });
    const sent = JSON.stringify(server.requests[1]!.body);
    for (const value of state) expect(sent).toContain(JSON.stringify(value));
  });

  it('reports usage in the four classes, with cached and reasoning tokens', async () => {
    const { client } = await startHarness(protocolCase, [
      {
        text: 'ok',
        usage: { input: 120, output: 40, cacheRead: 3000, cacheWrite: 512, reasoning: 25 },
      },
    ]);
    const response = await client.generate(ask('hello'));
    expect(response.usage).toEqual({
      input: 120,
      output: 40,
      cacheRead: 3000,
      cacheWrite: protocolCase.reports.cacheWrite ? 512 : 0,
      reasoning: protocolCase.reports.reasoning ? 25 : 0,
    });
    expect(response.model).toBe(protocolCase.model.apiName);
  });

  it('streams text deltas and names the calling actor', async () => {
    const { client, server } = await startHarness(protocolCase, [
      { text: 'It is sunny today.', match: { actor: 'agent:t/weather' } },
    ]);
    const deltas: string[] = [];
    const response = await client.generate(
      ask('Weather?', { actor: 'agent:t/weather', onDelta: (text) => deltas.push(text) }),
    );
    expect(deltas).toEqual(['It ', 'is ', 'sunny ', 'today.']);
    expect(response.message.parts).toEqual([{ type: 'text', text: 'It is sunny today.' }]);
    expect([server.requests[0]!.actor, server.requests[0]!.stream]).toEqual([
      'agent:t/weather',
      true,
    ]);
  });

  it.each([
    { scripted: 'end', expected: 'end' },
    { scripted: 'max_tokens', expected: 'max_tokens' },
    { scripted: 'refusal', expected: protocolCase.refusal },
  ] as const)('reports a scripted $scripted stop as $expected', async ({ scripted, expected }) => {
    const { client } = await startHarness(protocolCase, [{ text: 'cut', stopReason: scripted }]);
    expect((await client.generate(ask('Go.'))).stopReason).toBe(expected);
  });

  it('lets an error thrown by onDelta through unchanged', async () => {
    const { client, notices } = await startHarness(protocolCase, [{ text: 'Hello there' }]);
    const failure = new RangeError('listener failed');
    const onDelta = (): void => {
      throw failure;
    };
    await expect(client.generate(ask('hi', { onDelta }))).rejects.toBe(failure);
    expect(notices).toEqual([]);
  });

  it('ends an ordinary reply without aborting anything (no AbortError is made)', async () => {
    const { client } = await startHarness(protocolCase, [
      {
        text: 'It is sunny today.',
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
      },
    ]);
    const aborts = vi.spyOn(AbortController.prototype, 'abort');
    try {
      await client.generate(ask('Weather?', { signal: new AbortController().signal }));
      expect(aborts).not.toHaveBeenCalled();
    } finally {
      aborts.mockRestore();
    }
  });

  it("leaves no listener on the caller's signal after its requests", async () => {
    // An agent's or commander's signal lives for many requests: a listener left per request
    // (e.g. the SDK's own, were the signal handed to it directly) would pile up on it.
    const { client } = await startHarness(
      protocolCase,
      Array.from({ length: 5 }, () => ({
        text: 'Checking.',
        toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
      })),
    );
    const caller = new AbortController();
    for (let request = 0; request < 5; request++)
      await client.generate(ask('Weather?', { signal: caller.signal }));
    expect(getEventListeners(caller.signal, 'abort')).toHaveLength(0);
  });

  it('still aborts a stream the caller cancels midway', async () => {
    // The protocol's own frames, grouped so the server goes silent right after the first
    // word (a stalled turn sends two frames first): the caller cancels on that delta.
    const handler = defaultProtocolHandlers().find(
      (each) => each.protocol === protocolCase.protocol,
    )!;
    const frames = handler.stream(
      { text: 'one two three four' },
      { turnIndex: 0, model: protocolCase.model.apiName },
    );
    const first = frames.findIndex((frame) => frame.includes('one'));
    const { client, notices } = await startHarness(protocolCase, [
      {
        frames: [frames.slice(0, first + 1).join(''), '', ...frames.slice(first + 1)],
        stallMs: 10_000,
      },
    ]);
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    const onDelta = (): void => controller.abort(reason);
    await expect(
      client.generate(ask('Count.', { signal: controller.signal, onDelta })),
    ).rejects.toBe(reason);
    expect(notices).toEqual([]);
  });
});
