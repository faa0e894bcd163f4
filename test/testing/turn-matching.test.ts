import { describe, expect, it } from 'vitest';
import type { RequestSummary } from '../../src/testing/protocol.ts';
import {
  describeTurn,
  matchesTurn,
  pickTurn,
  type IncomingRequest,
} from '../../src/testing/turn-matching.ts';

const summary: RequestSummary = {
  model: 'm',
  stream: true,
  system: 'You are the planner.',
  lastMessage: 'tool said 42',
  allText: 'hello\ntool said 42',
};
const request = (
  actor?: string,
  protocol: IncomingRequest['protocol'] = 'openai',
): IncomingRequest => ({ protocol, actor, summary });

describe('turn matching', () => {
  it('checks every condition of a match', () => {
    expect(matchesTurn(undefined, request())).toBe(true);
    expect(matchesTurn({ actor: 'a' }, request())).toBe(false);
    expect(matchesTurn({ actor: 'a', lastMessageContains: '42' }, request('a'))).toBe(true);
    expect(matchesTurn({ actor: 'a', lastMessageContains: 'hello' }, request('a'))).toBe(false);
    expect(matchesTurn({ contains: 'planner' }, request())).toBe(true);
    expect(matchesTurn({ contains: 'hello' }, request())).toBe(true);
    expect(matchesTurn({ contains: 'absent' }, request())).toBe(false);
  });

  it('picks the first unused turn that fits, honouring protocol restrictions', () => {
    const turns = [
      { text: 'a' },
      { protocol: 'gemini' as const, text: 'b' },
      { match: { actor: 'x' }, text: 'c' },
      { text: 'd' },
    ];
    expect(pickTurn(turns, new Set(), request())).toBe(0);
    expect(pickTurn(turns, new Set([0]), request())).toBe(3);
    expect(pickTurn(turns, new Set([0]), request('x'))).toBe(2);
    expect(pickTurn(turns, new Set([0]), request(undefined, 'gemini'))).toBe(1);
    expect(pickTurn(turns, new Set([0, 1, 2, 3]), request())).toBe(-1);
  });

  it('describes turns for assertion messages', () => {
    expect(describeTurn({ protocol: 'anthropic', error: { status: 529 } }, 4)).toBe(
      'turn 4 (protocol anthropic; error 529)',
    );
    expect(
      describeTurn(
        {
          toolCalls: [
            { name: 'a', arguments: {} },
            { name: 'b', arguments: {} },
          ],
          text: 'x'.repeat(50),
        },
        0,
      ),
    ).toBe(`turn 0 (tool calls a, b; text "${'x'.repeat(39)}…")`);
    expect(describeTurn({}, 2)).toBe('turn 2');
  });
});
