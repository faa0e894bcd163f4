import { afterEach, describe, expect, it } from 'vitest';
import type { AgentSession, CreateAgentSession } from '../../src/actors/contracts.ts';
import { call, cleanUp, eventsOf, reply, runEngine, sentMessages } from './engine-harness.ts';

afterEach(cleanUp);

const ONE_TASK = (extra = '') => `
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
    ${extra}
  }
  task "after" {
    objective = "After"
    depends_on = [tasks.t]
  }
}`;

describe('failures through startRun', () => {
  it('a task budget breach fails the task with the budget message and skips its dependents', async () => {
    const { result, events } = await runEngine({
      hcl: ONE_TASK('budget {\n      tokens = 100\n    }'),
      mission: 'm',
      turns: [
        {
          match: { actor: 'commander:t' },
          toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Go'] } }],
          usage: { input: 150, output: 10 },
        },
      ],
    });
    expect(result.status).toBe('failed');
    expect(result.tasks.map((task) => `${task.name}:${task.status}`)).toEqual([
      't:failed',
      'after:skipped',
    ]);
    expect(result.tasks[0]?.error).toBe('budget exceeded: task "t" used 160 of 100 tokens');
    expect(eventsOf(events, 'budget.exceeded')).toMatchObject([
      { scope: 'task', subject: 't', metric: 'tokens', used: 160, limit: 100 },
    ]);
    expect(result.missions).toEqual([
      {
        name: 'm',
        status: 'failed',
        error: 'task "t" failed: budget exceeded: task "t" used 160 of 100 tokens',
      },
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'run.finished', outcome: 'failed', exitCode: 1 });
  });

  it('a commander that stops calling tools fails after two nudges', async () => {
    const { result, events, server } = await runEngine({
      hcl: ONE_TASK(),
      mission: 'm',
      turns: [
        reply('commander:t', 'thinking'),
        reply('commander:t', 'still thinking'),
        reply('commander:t', 'done?'),
      ],
    });
    server.assertDone();
    expect(result.tasks[0]?.error).toBe('commander stopped calling tools');
    const nudged = eventsOf(events, 'model.request').filter(
      (event) => event.actor === 'commander:t',
    );
    expect(nudged).toHaveLength(3);
    expect(JSON.stringify(sentMessages(events, nudged[1]!).at(-1))).toContain(
      'Call a tool: continue your plan, or call task_complete.',
    );
  });

  it('a tool whose execution throws fails its task, not the process', async () => {
    const throwing: CreateAgentSession = (_services, spec) =>
      ({
        agent: spec.agent,
        actorId: `agent:${spec.task}/${spec.agent.name}`,
        finishedOnce: false,
        call: () => Promise.reject(new TypeError('socket exploded')),
        resumeCall: () => Promise.reject(new TypeError('socket exploded')),
        ask: () => Promise.reject(new TypeError('socket exploded')),
        messages: () => [],
      }) satisfies AgentSession;
    const { result, events } = await runEngine({
      hcl: ONE_TASK(),
      mission: 'm',
      dependencies: { createAgentSession: throwing },
      turns: [
        call('commander:t', 'set_subtasks', { subtasks: ['Go'] }),
        call('commander:t', 'call_agent', { name: 'worker', task: 'Work' }),
      ],
    });
    expect(result.status).toBe('failed');
    expect(result.tasks[0]).toMatchObject({ status: 'failed', error: 'socket exploded' });
    const closed = eventsOf(events, 'tool.completed').find((event) => event.tool === 'call_agent');
    expect(closed).toMatchObject({
      isError: true,
      result: '{"status":"error","error":"not executed: socket exploded"}',
    });
  });

  it('cancel() aborts the in-flight request and ends the run cancelled', async () => {
    const { result, events } = await runEngine({
      hcl: ONE_TASK(),
      mission: 'm',
      turns: [{ ...call('commander:t', 'set_subtasks', { subtasks: ['Go'] }), delayMs: 30_000 }],
      onStart: (handle) => {
        const stop = handle.bus.subscribe((event) => {
          if (event.type !== 'model.request') return;
          stop();
          handle.cancel();
        });
      },
    });
    expect(result.status).toBe('cancelled');
    expect(result.missions).toEqual([
      { name: 'm', status: 'cancelled', error: 'cancelled by the user' },
    ]);
    expect(result.tasks.map((task) => `${task.name}:${task.status}`)).toEqual([
      't:cancelled',
      'after:skipped',
    ]);
    expect(eventsOf(events, 'model.response')).toHaveLength(0);
    expect(events.at(-1)).toMatchObject({
      type: 'run.finished',
      outcome: 'cancelled',
      exitCode: 130,
    });
  });

  it('the run signal cancels like cancel()', async () => {
    const controller = new AbortController();
    const { result } = await runEngine({
      hcl: ONE_TASK(),
      mission: 'm',
      options: { signal: controller.signal },
      turns: [{ ...call('commander:t', 'set_subtasks', { subtasks: ['Go'] }), delayMs: 30_000 }],
      onStart: (handle) => {
        handle.bus.subscribe((event) => {
          if (event.type === 'model.request') controller.abort();
        });
      },
    });
    expect(result.status).toBe('cancelled');
  });

  it('fail-fast cancels a running sibling', async () => {
    const hcl = `
mission "m" {
  commander {
    model = MODEL
  }
  task "quick" {
    objective = "Quick"
  }
  task "slow" {
    objective = "Slow"
  }
}`;
    const { result } = await runEngine({
      hcl,
      mission: 'm',
      turns: [
        call('commander:quick', 'task_complete', { succeed: false, reason: 'cannot' }),
        { ...call('commander:slow', 'set_subtasks', { subtasks: ['Go'] }), delayMs: 30_000 },
      ],
    });
    expect(result.tasks.map((task) => `${task.name}:${task.status}`)).toEqual([
      'quick:failed',
      'slow:cancelled',
    ]);
    expect(result.tasks[0]?.error).toBe('cannot');
  });

  it('a mission budget breach fails the task that crossed it', async () => {
    const hcl = `
mission "m" {
  commander {
    model = MODEL
  }
  budget {
    tokens = 50
  }
  task "t" {
    objective = "Do it"
  }
}`;
    const { result, events } = await runEngine({
      hcl,
      mission: 'm',
      turns: [
        {
          match: { actor: 'commander:t' },
          toolCalls: [{ name: 'set_subtasks', arguments: { subtasks: ['Go'] } }],
          usage: { input: 45, output: 5 },
        },
      ],
    });
    expect(result.tasks[0]).toMatchObject({
      status: 'failed',
      error: 'budget exceeded: mission "m" used 50 of 50 tokens',
    });
    expect(eventsOf(events, 'budget.exceeded')).toMatchObject([{ scope: 'mission', subject: 'm' }]);
  });
});
