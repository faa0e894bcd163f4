import { afterEach, describe, expect, it } from 'vitest';
import type { GatePoint } from '../../src/runtime/gate.ts';
import { toInputItems } from '../../src/models/openai-responses/to-wire.ts';
import {
  cleanUp,
  eventsOf,
  plainTask,
  runEngine,
  sentMessages,
  wireRequests,
} from './engine-harness.ts';

afterEach(cleanUp);

const HELLO = `
agent "greeter" {
  model = MODEL
  personality = "You write short greetings.\\nSecond line."
}
mission "hello" {
  directive = "Greet someone"
  commander {
    model = MODEL
  }
  agents = [agents.greeter]
  inputs = {
    name = string("Who to greet", true)
  }
  task "greet" {
    objective = "Write a greeting for \${inputs.name}"
  }
}
`;

describe('one plain task through startRun', () => {
  for (const provider of ['openai', 'anthropic', 'gemini', 'ollama'] as const) {
    it(`succeeds end to end (${provider})`, async () => {
      const { result, events, server } = await runEngine({
        provider,
        hcl: HELLO,
        mission: 'hello',
        inputs: { name: 'Ada' },
        turns: plainTask('greet', 'greeter', 'Greeted Ada'),
      });
      server.assertDone();
      expect(result.status).toBe('succeeded');
      expect(result.tasks).toEqual([
        {
          mission: 'hello',
          name: 'greet',
          status: 'succeeded',
          summary: 'Greeted Ada',
          route: null,
        },
      ]);
      expect(events[0]?.type).toBe('run.started');
      expect(events.at(-1)).toMatchObject({
        type: 'run.finished',
        outcome: 'succeeded',
        exitCode: 0,
      });
      const completed = eventsOf(events, 'tool.completed').find(
        (event) => event.tool === 'call_agent',
      );
      expect(JSON.parse(completed?.result ?? '{}')).toEqual({
        status: 'ok',
        agent: 'greeter',
        result: 'greeter result for greet',
      });
      const firstRequest = eventsOf(events, 'model.request')[0];
      expect(firstRequest?.actor).toBe('commander:greet');
      expect(firstRequest?.system).toContain('- greeter: You write short greetings.');
      expect(firstRequest?.system).not.toContain('Second line.');
      expect(firstRequest?.messageCount).toBe(1);
      expect(sentMessages(events, firstRequest!)[0]).toEqual({
        role: 'user',
        parts: [{ type: 'text', text: 'Write a greeting for Ada' }],
      });
    });
  }

  it('waits at the step gate before every model request and every tool, internal ones included', async () => {
    const points: GatePoint[] = [];
    const { events, server } = await runEngine({
      hcl: HELLO,
      mission: 'hello',
      inputs: { name: 'Ada' },
      options: {
        gate: {
          before: (point) => {
            points.push(point);
            return Promise.resolve();
          },
        },
      },
      turns: plainTask('greet', 'greeter', 'Greeted Ada'),
    });
    expect(
      points.map((point) => `${point.kind} ${point.actor}${point.tool ? ` ${point.tool}` : ''}`),
    ).toEqual([
      'model commander:greet',
      'tool commander:greet set_subtasks',
      'model commander:greet',
      'tool commander:greet call_agent',
      'model agent:greet/greeter',
      'model commander:greet',
      'tool commander:greet complete_subtask',
      'model commander:greet',
      'tool commander:greet task_complete',
    ]);
    // Every message of the commander's conversation is journaled through message.appended.
    const appended = eventsOf(events, 'message.appended').filter(
      (event) => event.conversation === 'commander:greet',
    );
    const lastRequest = eventsOf(events, 'model.request')
      .filter((event) => event.actor === 'commander:greet')
      .at(-1);
    // The wire truth: the last request sent exactly the journaled messages before it.
    const lastSent = wireRequests(server, 'commander:greet').at(-1);
    expect(lastRequest?.messageCount).toBe(appended.length - 2);
    expect(lastSent?.input).toEqual(
      JSON.parse(
        JSON.stringify(
          toInputItems(appended.map((event) => event.message).slice(0, lastRequest?.messageCount)),
        ),
      ),
    );
  });

  it('reports load-time warnings as warning events after run.started', async () => {
    const { events } = await runEngine({
      hcl: HELLO.replace(
        'personality = "You write',
        'reasoning = "low"\n  personality = "You write',
      ),
      mission: 'hello',
      inputs: { name: 'Ada' },
      turns: plainTask('greet', 'greeter', 'Greeted Ada'),
    });
    expect(events[1]).toMatchObject({
      type: 'warning',
      code: 'config',
      message: expect.stringContaining('reasoning = "low" has no effect'),
    });
  });
});
