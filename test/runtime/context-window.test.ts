import { describe, expect, it } from 'vitest';
import type { Message, Usage } from '../../src/models/model-types.ts';
import {
  applyContextCut,
  planContextCut,
  SUMMARY_OPENING,
  summarize,
} from '../../src/runtime/context-window.ts';
import { emptyUsage } from '../../src/models/usage.ts';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const reply = (text: string, ...tools: string[]): Message => ({
  role: 'assistant',
  parts: [
    ...(text === '' ? [] : [{ type: 'text' as const, text }]),
    ...tools.map((name, index) => ({
      type: 'tool_call' as const,
      id: `${text}-${index}`,
      name,
      arguments: '{}',
    })),
  ],
});
const results = (call: Message): Message => ({
  role: 'user',
  parts: call.parts.flatMap((part) =>
    part.type === 'tool_call'
      ? [
          {
            type: 'tool_result' as const,
            callId: part.id,
            name: part.name,
            content: 'ok',
            isError: false,
          },
        ]
      : [],
  ),
});

/** A task, then `turns` replies each calling `fetch` and its results. */
function agentConversation(turns: number): Message[] {
  const messages = [user('Find the answer')];
  for (let turn = 1; turn <= turns; turn++) {
    const call = reply(`step ${turn}`, 'fetch');
    messages.push(call, results(call));
  }
  return messages;
}

const usage = (input: number, cacheRead = 0): Usage => ({ ...emptyUsage(), input, cacheRead });

/** Every tool call is answered by the next message; roles alternate from a user message. */
function wellFormed(messages: readonly Message[]): boolean {
  if (messages[0]?.role !== 'user') return false;
  return messages.every((message, index) => {
    if (index > 0 && messages[index - 1]?.role === message.role) return false;
    const calls = message.parts.filter((part) => part.type === 'tool_call');
    const next = messages[index + 1];
    return calls.every((call) =>
      next?.parts.some((part) => part.type === 'tool_result' && part.callId === call.id),
    );
  });
}

describe('pruning', () => {
  const policy = { pruning: { pruneOn: 4, pruneTo: 2 } };

  it('does nothing below prune_on turns', () => {
    expect(planContextCut(agentConversation(3), policy, null)).toBeNull();
  });

  it('keeps the task and the last prune_to turns, each call with its result', () => {
    const messages = agentConversation(4);
    const cut = planContextCut(messages, policy, null);
    expect(cut).toMatchObject({ kind: 'pruned', from: 5, turnsBefore: 4, turnsAfter: 2 });
    const pruned = applyContextCut(messages, cut!);
    expect(pruned.map((message) => textOrTools(message))).toEqual([
      'Find the answer',
      'step 3',
      'results',
      'step 4',
      'results',
    ]);
    expect(wellFormed(pruned)).toBe(true);
  });

  it('keeps the latest task when the session was given a second one', () => {
    const first = agentConversation(2);
    const second = [...first, reply('first answer'), user('Now the second')];
    for (let turn = 1; turn <= 3; turn++) {
      const call = reply(`again ${turn}`, 'fetch');
      second.push(call, results(call));
    }
    const cut = planContextCut(second, { pruning: { pruneOn: 6, pruneTo: 2 } }, null);
    const pruned = applyContextCut(second, cut!);
    expect(pruned[0]).toEqual(user('Now the second'));
    expect(wellFormed(pruned)).toBe(true);
  });

  it('never cuts between a call and its result, at any size', () => {
    for (let turns = 2; turns <= 12; turns++) {
      for (let pruneTo = 1; pruneTo < turns; pruneTo++) {
        const messages = agentConversation(turns);
        const cut = planContextCut(messages, { pruning: { pruneOn: turns, pruneTo } }, null);
        expect(wellFormed(applyContextCut(messages, cut!))).toBe(true);
      }
    }
  });
});

describe('compaction', () => {
  const policy = { compaction: { tokenLimit: 1000, turnRetention: 1 } };

  it('does nothing while the last prompt is within token_limit', () => {
    expect(planContextCut(agentConversation(5), policy, usage(1000))).toBeNull();
  });

  it('counts cached input toward the limit', () => {
    expect(planContextCut(agentConversation(5), policy, usage(600, 401))).toMatchObject({
      kind: 'compacted',
      inputTokens: 1001,
    });
  });

  it('replaces all but the last turn_retention turns by one summary after the task', () => {
    const messages = agentConversation(3);
    messages[3] = reply('  the capital\nis Paris  ', 'fetch', 'read');
    messages[4] = results(messages[3]!);
    const cut = planContextCut(messages, policy, usage(5000))!;
    expect(cut).toMatchObject({ kind: 'compacted', from: 5, turnsBefore: 3, turnsAfter: 1 });
    const compacted = applyContextCut(messages, cut);
    expect(compacted).toHaveLength(3);
    expect(compacted[0]).toEqual({
      role: 'user',
      parts: [
        { type: 'text', text: 'Find the answer' },
        {
          type: 'text',
          text: [
            SUMMARY_OPENING,
            '2 earlier turns were replaced by this summary to keep the context small.',
            'Tools used: fetch, read.',
            'What those turns said:',
            '- step 1',
            '- the capital is Paris',
            '</compacted_context>',
          ].join('\n'),
        },
      ],
    });
    expect(wellFormed(compacted)).toBe(true);
  });

  it('keeps earlier summaries in the head when it compacts again', () => {
    const first = applyContextCut(agentConversation(3), {
      ...planContextCut(agentConversation(3), policy, usage(5000))!,
    });
    for (let turn = 4; turn <= 5; turn++) {
      const call = reply(`step ${turn}`, 'fetch');
      first.push(call, results(call));
    }
    const again = applyContextCut(first, planContextCut(first, policy, usage(5000))!);
    const texts = again[0]!.parts.map((part) => (part.type === 'text' ? part.text : ''));
    expect(texts[0]).toBe('Find the answer');
    expect(texts.slice(1).every((text) => text.startsWith(SUMMARY_OPENING))).toBe(true);
    expect(texts).toHaveLength(3);
    expect(wellFormed(again)).toBe(true);
  });

  it('goes first; pruning is not needed after it', () => {
    const both = { ...policy, pruning: { pruneOn: 3, pruneTo: 2 } };
    expect(planContextCut(agentConversation(3), both, usage(5000))?.kind).toBe('compacted');
    expect(planContextCut(agentConversation(3), both, usage(10))?.kind).toBe('pruned');
  });

  it('cuts long findings to 200 characters and says when turns only called tools', () => {
    const long = 'x'.repeat(250);
    expect(summarize([reply(long)]).split('\n')[4]).toBe(`- ${'x'.repeat(200)}…`);
    expect(summarize([reply('', 'fetch')]).split('\n')[4]).toBe('- (only tool calls)');
  });
});

function textOrTools(message: Message): string {
  if (message.parts.every((part) => part.type === 'tool_result')) return 'results';
  return message.parts
    .filter((part) => part.type === 'text')
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('');
}
