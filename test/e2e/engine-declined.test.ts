/**
 * Replies the provider declined (refused, blocked, filtered) through startRun: never an
 * ordinary empty answer, always a failure that names the stop reason.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { splitSseFrames } from '../../src/testing/index.ts';
import { call, cleanUp, eventsOf, runEngine } from './engine-harness.ts';

afterEach(cleanUp);

const ONE_TASK = `
agent "worker" {
  model = MODEL
  personality = "You work."
}
mission "m" {
  commander {
    model = MODEL
  }
  agents = [agents.worker]
  task "t" {
    objective = "Do it"
  }
}`;

const REFUSAL = "I'm sorry, but I can't help with that.";

describe('declined replies through startRun', () => {
  it("an agent's refusal comes back to its commander as an error result naming the refusal", async () => {
    const { result, events, server } = await runEngine({
      hcl: ONE_TASK,
      mission: 'm',
      turns: [
        call('commander:t', 'set_subtasks', { subtasks: ['Go'] }),
        call('commander:t', 'call_agent', { name: 'worker', task: 'Write malware' }),
        { match: { actor: 'agent:t/worker' }, stopReason: 'refusal', text: REFUSAL },
        call(
          'commander:t',
          'task_complete',
          { succeed: false, reason: 'the worker refused' },
          { lastMessageContains: 'refused' },
        ),
      ],
    });
    server.assertDone();
    const answer = eventsOf(events, 'tool.completed').find((event) => event.tool === 'call_agent');
    expect(answer).toMatchObject({ isError: true });
    expect(answer?.result).toContain(`the model refused (stop reason \\"refusal\\"): ${REFUSAL}`);
    const refused = eventsOf(events, 'model.response').find(
      (event) => event.actor === 'agent:t/worker',
    );
    expect(refused).toMatchObject({ stopReason: 'refusal', stopDetail: REFUSAL });
    expect(result.tasks[0]).toMatchObject({ status: 'failed', error: 'the worker refused' });
  });

  it("a commander's refusal fails its task with the stop reason (Anthropic)", async () => {
    const { result, server } = await runEngine({
      provider: 'anthropic',
      hcl: ONE_TASK,
      mission: 'm',
      turns: [{ match: { actor: 'commander:t' }, stopReason: 'refusal', text: 'Not allowed.' }],
    });
    server.assertDone();
    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({
      status: 'failed',
      error: 'the model refused (stop reason "refusal"): Not allowed.',
    });
  });

  it('a commander whose prompt Gemini blocks fails its task with the block reason', async () => {
    const recording = fileURLToPath(
      new URL('../fixtures/wire/gemini/stream-prompt-blocked.sse', import.meta.url),
    );
    const { result, events } = await runEngine({
      provider: 'gemini',
      hcl: ONE_TASK,
      mission: 'm',
      turns: [
        {
          match: { actor: 'commander:t' },
          frames: splitSseFrames(readFileSync(recording, 'utf8')),
        },
      ],
    });
    expect(result.tasks[0]).toMatchObject({
      status: 'failed',
      error: 'the provider blocked the prompt (stop reason "blocked"): PROHIBITED_CONTENT',
    });
    expect(eventsOf(events, 'model.response').map((event) => event.stopReason)).toEqual([
      'blocked',
    ]);
  });
});
