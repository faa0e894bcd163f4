import { afterEach, describe, expect, it } from 'vitest';
import {
  startHarness,
  wireTools,
  wireTranscript,
  type Harness,
  researcherSession,
} from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const HCL = `
agent "researcher" {
  model       = models.openai.gpt_4o
  personality = "You research carefully."
  tools       = [builtins.http.get]
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.researcher]
  budget {
    tokens = 1000
  }
  task "t" {
    objective = "do it"
  }
}
`;

const ACTOR = 'agent:t[2]/researcher';
const FORK = 'agent:t[2]/researcher#fork';
const signal = (): AbortSignal => new AbortController().signal;

describe('agent session ask', () => {
  it('answers in a fork with no tools and builds on earlier questions', async () => {
    harness = await startHarness({
      hcl: HCL,
      turns: [
        { match: { actor: ACTOR }, text: 'Paris is the capital.' },
        { match: { actor: FORK }, text: 'France.' },
        { match: { actor: FORK }, text: 'Yes, certain.' },
      ],
    });
    const session = researcherSession(harness.services, { index: 2 });
    await session.call('Capital of France?', { signal: signal() });

    const first = await session.ask('Which country was that?', signal());
    const second = await session.ask('Are you sure?', signal());

    expect(first).toEqual({ ok: true, result: 'France.' });
    expect(second).toEqual({ ok: true, result: 'Yes, certain.' });
    const [, forkFirst, forkSecond] = harness.server.requests;
    expect(forkFirst?.actor).toBe(FORK);
    expect(wireTools(forkFirst?.body)).toEqual([]);
    expect(wireTools(forkSecond?.body)).toEqual([]);
    expect(wireTranscript(forkSecond?.body)).toEqual([
      'user: Capital of France?',
      'assistant: Paris is the capital.',
      'user: Which country was that?',
      'assistant: France.',
      'user: Are you sure?',
    ]);
    // The agent's own conversation is untouched by the fork.
    expect(session.messages()).toHaveLength(2);
    const forkMessages = harness.events.filter(
      (event) => event.type === 'message.appended' && event.conversation === FORK,
    );
    expect(forkMessages.map((event) => event.actor)).toEqual([FORK, FORK, FORK, FORK]);
    harness.server.assertDone();
  });

  it('fails the call once the mission budget is spent', async () => {
    harness = await startHarness({
      hcl: HCL,
      turns: [{ text: 'A long answer.', usage: { input: 900, output: 300 } }],
    });
    const session = researcherSession(harness.services, { index: 2 });
    const result = await session.call('Go', { signal: signal() });

    expect(result).toEqual({
      ok: false,
      reason: 'budget exceeded: mission "m" used 1,200 of 1,000 tokens',
    });
    const again = await session.ask('Anything else?', signal());
    expect(again).toEqual({
      ok: false,
      reason: 'budget exceeded: mission "m" used 1,200 of 1,000 tokens',
    });
    expect(harness.server.requests).toHaveLength(1);
    expect(harness.events.filter((event) => event.type === 'budget.exceeded')).toHaveLength(1);
  });

  it('answers a tool call in the fork with an error result so the fork stays valid', async () => {
    harness = await startHarness({
      hcl: HCL,
      turns: [
        { match: { actor: ACTOR }, text: 'Done.' },
        {
          match: { actor: FORK },
          text: 'Let me check.',
          toolCalls: [{ id: 'f1', name: 'builtins_http_get', arguments: { url: 'http://x' } }],
        },
        { match: { actor: FORK }, text: 'It was fine.' },
      ],
    });
    const session = researcherSession(harness.services, { index: 2 });
    await session.call('Do it', { signal: signal() });
    expect(await session.ask('How did it go?', signal())).toEqual({
      ok: true,
      result: 'Let me check.',
    });
    await session.ask('And?', signal());

    expect(wireTranscript(harness.server.requests[2]?.body)).toEqual([
      'user: Do it',
      'assistant: Done.',
      'user: How did it go?',
      'assistant: Let me check.',
      'call builtins_http_get {"url":"http://x"}',
      'output: {"status":"error","error":"not executed: no tools are available for questions"}',
      'user: And?',
    ]);
  });
});
