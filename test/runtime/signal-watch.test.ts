import { describe, expect, it } from 'vitest';
import type { EventInput, EventOf, MissionEvent } from '../../src/base/events.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import {
  createSignalWatch,
  DEFAULT_STALL_TURNS,
  normalizedArguments,
} from '../../src/runtime/signal-watch.ts';

const COMMANDER = 'commander:gather';
const AGENT = 'agent:gather/scout';

/** A bus with the watch on it (stall threshold per mission), and the signals it raised. */
function watched(stallTurns: Record<string, number> = {}): {
  bus: EventBus;
  signals: () => Array<EventOf<'signal.raised'>>;
} {
  const bus = new EventBus({ runId: 'run-1', now: () => new Date(0) });
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  bus.subscribe(
    createSignalWatch(
      { stallTurnsOf: (mission) => stallTurns[mission] ?? DEFAULT_STALL_TURNS },
      (event) => bus.emit(event),
    ),
  );
  return {
    bus,
    signals: () =>
      events.filter((event): event is EventOf<'signal.raised'> => event.type === 'signal.raised'),
  };
}

function missionStarted(mission: string): EventInput {
  return {
    type: 'mission.started',
    actor: `mission:${mission}`,
    mission,
    inputs: {},
    chainedFrom: null,
  };
}

function turn(actor: string, tool?: string): EventInput {
  return {
    type: 'model.response',
    actor,
    requestId: 'r',
    model: { provider: 'openai', config: 'main', key: 'gpt_4o_mini', apiName: 'gpt-4o-mini' },
    message: {
      role: 'assistant',
      parts:
        tool === undefined ? [] : [{ type: 'tool_call', id: 'c', name: tool, arguments: '{}' }],
    },
    usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    costPico: '0',
    unpriced: false,
    stopReason: 'tool_use',
    durationMs: 1,
  };
}

function plan(actor: string, completed: number): EventInput {
  const subtasks = [0, 1, 2].map((index) => ({
    index,
    title: `step ${index}`,
    status: index < completed ? ('completed' as const) : ('pending' as const),
  }));
  return { type: 'plan.updated', actor, task: 'gather', index: null, subtasks };
}

function called(actor: string, tool: string, args: string): EventInput {
  return { type: 'tool.called', actor, callId: `c-${Math.random()}`, tool, arguments: args };
}

describe('the signal watch', () => {
  it('raises a stall once a commander has turned stall_turns times without completing a subtask', () => {
    const { bus, signals } = watched({ research: 3 });
    bus.emit(missionStarted('research'));
    bus.emit(turn(COMMANDER));
    bus.emit(turn(COMMANDER));
    expect(signals()).toEqual([]);
    bus.emit(turn(COMMANDER));
    bus.emit(turn(COMMANDER));
    expect(signals()).toMatchObject([
      {
        actor: COMMANDER,
        signal: 'stall',
        count: 3,
        message: 'stalled: 3 model turns without completing a subtask',
      },
    ]);
  });

  it('counts again from a completed subtask, and uses the default of 6 without stall_turns', () => {
    const { bus, signals } = watched();
    bus.emit(missionStarted('research'));
    for (let index = 0; index < 5; index++) bus.emit(turn(COMMANDER));
    bus.emit(plan(COMMANDER, 1));
    for (let index = 0; index < 5; index++) bus.emit(turn(COMMANDER));
    expect(signals()).toEqual([]);
    bus.emit(turn(COMMANDER));
    expect(signals().map((signal) => signal.count)).toEqual([6]);
    // A plan that completes nothing more is no progress.
    bus.emit(plan(COMMANDER, 1));
    for (let index = 0; index < 6; index++) bus.emit(turn(COMMANDER));
    expect(signals()).toHaveLength(1);
    // After progress a new streak may raise again.
    bus.emit(plan(COMMANDER, 2));
    for (let index = 0; index < 6; index++) bus.emit(turn(COMMANDER));
    expect(signals()).toHaveLength(2);
  });

  it('does not call a turn that completes a subtask or the task a stall, and waits for the next', () => {
    const { bus, signals } = watched({ research: 2 });
    bus.emit(missionStarted('research'));
    bus.emit(turn(COMMANDER));
    bus.emit(turn(COMMANDER, 'complete_subtask'));
    expect(signals()).toEqual([]);
    // The call was refused: no plan update, so the next turn is the third without progress.
    bus.emit(turn(COMMANDER));
    expect(signals().map((signal) => signal.message)).toEqual([
      'stalled: 3 model turns without completing a subtask',
    ]);
  });

  it('never calls an agent stalled: agents have no subtasks', () => {
    const { bus, signals } = watched({ research: 1 });
    bus.emit(missionStarted('research'));
    for (let index = 0; index < 10; index++) bus.emit(turn(AGENT));
    expect(signals()).toEqual([]);
  });

  it('raises a loop on the third identical call, whatever the key order and spacing', () => {
    const { bus, signals } = watched();
    bus.emit(called(AGENT, 'web_get', '{"url":"https://a.test","page":1}'));
    bus.emit(called(AGENT, 'web_get', '{"url":"https://b.test","page":1}'));
    bus.emit(called(AGENT, 'web_get', '{ "page": 1, "url": "https://a.test" }'));
    // Another actor's identical call is its own count.
    bus.emit(called('agent:gather/other', 'web_get', '{"url":"https://a.test","page":1}'));
    expect(signals()).toEqual([]);
    bus.emit(called(AGENT, 'web_get', '{"page":1,"url":"https://a.test"}'));
    expect(signals()).toMatchObject([
      {
        actor: AGENT,
        signal: 'loop',
        count: 3,
        message: 'looping: web_get called 3 times with the same arguments',
        tool: 'web_get',
        arguments: '{"page":1,"url":"https://a.test"}',
      },
    ]);
    bus.emit(called(AGENT, 'web_get', '{"page":1,"url":"https://a.test"}'));
    expect(signals()).toHaveLength(1);
  });

  it('raises a re-delegation when a commander gives the same task to the same agent again', () => {
    const { bus, signals } = watched();
    const task = (name: string, text: string): string => JSON.stringify({ name, task: text });
    bus.emit(called(COMMANDER, 'call_agent', task('scout', 'Find the  prices')));
    bus.emit(called(COMMANDER, 'call_agent', task('writer', 'Find the prices')));
    bus.emit(called(COMMANDER, 'call_agent', task('scout', 'Find the prices of tea')));
    expect(signals()).toEqual([]);
    bus.emit(called(COMMANDER, 'call_agent', task('scout', ' find the PRICES ')));
    expect(signals()).toMatchObject([
      {
        actor: COMMANDER,
        signal: 'redelegation',
        count: 2,
        message: 're-delegating: the same task given to scout 2 times',
        tool: 'call_agent',
      },
    ]);
  });

  it('starts a retried item afresh', () => {
    const { bus, signals } = watched({ research: 2 });
    const item = 'commander:gather[4]';
    bus.emit(missionStarted('research'));
    bus.emit(turn(item));
    bus.emit(called('agent:gather[4]/scout', 'web_get', '{}'));
    bus.emit(called('agent:gather[4]/scout', 'web_get', '{}'));
    bus.emit({
      type: 'iteration.started',
      actor: item,
      task: 'gather',
      index: 4,
      itemId: '4',
      attempt: 2,
    });
    bus.emit(turn(item));
    bus.emit(called('agent:gather[4]/scout', 'web_get', '{}'));
    expect(signals()).toEqual([]);
  });

  it('keeps no counts for an item once it settled, succeeded or failed', () => {
    const bus = new EventBus({ runId: 'run-1', now: () => new Date(0) });
    const watch = createSignalWatch({ stallTurnsOf: () => DEFAULT_STALL_TURNS }, (event) =>
      bus.emit(event),
    );
    bus.subscribe(watch);
    const item = { actor: 'task:gather', task: 'gather', attempt: 1 } as const;
    for (const index of [4, 5]) {
      bus.emit({ type: 'iteration.started', ...item, index, itemId: String(index) });
      bus.emit(turn(`commander:gather[${index}]`));
      bus.emit(called(`agent:gather[${index}]/scout`, 'web_get', '{}'));
    }
    bus.emit(called(COMMANDER, 'set_subtasks', '{}'));
    const counts = [watch.watching()];
    bus.emit({
      type: 'iteration.succeeded',
      ...item,
      index: 4,
      itemId: '4',
      output: null,
      durationMs: 1,
    });
    counts.push(watch.watching());
    bus.emit({
      type: 'iteration.failed',
      ...item,
      index: 5,
      itemId: '5',
      error: 'no',
      final: true,
    });
    counts.push(watch.watching());
    expect(counts).toEqual([5, 3, 1]);
  });

  it('does not count calls repeated across progress, items or new tasks as a loop', () => {
    const { bus, signals } = watched();
    // A commander completing subtask after subtask.
    for (let step = 1; step <= 3; step++) {
      bus.emit(called(COMMANDER, 'complete_subtask', '{}'));
      bus.emit(plan(COMMANDER, step));
    }
    // A sequential task's commander taking item after item with the same plan and hand-over.
    const seq = 'commander:write';
    const handOver = JSON.stringify({ name: 'editor', task: 'Write the section' });
    for (let item = 0; item < 3; item++) {
      bus.emit(called(seq, 'dataset_next', '{}'));
      bus.emit(called(seq, 'set_subtasks', '{"subtasks":["Write it"]}'));
      bus.emit(called(seq, 'call_agent', handOver));
    }
    // An agent doing the same lookup for each new task its commander gives it.
    for (let task = 0; task < 3; task++) {
      bus.emit(
        called(COMMANDER, 'call_agent', JSON.stringify({ name: 'scout', task: `t${task}` })),
      );
      bus.emit(called(AGENT, 'web_get', '{"url":"https://a.test"}'));
      bus.emit(called(AGENT, 'web_get', '{"url":"https://a.test"}'));
    }
    expect(signals()).toEqual([]);
  });

  it('keeps text that is not JSON as it is, trimmed', () => {
    expect(normalizedArguments('  not json ')).toBe('not json');
    expect(normalizedArguments('{"b":[{"d":1,"c":2}],"a":null}')).toBe(
      '{"a":null,"b":[{"c":2,"d":1}]}',
    );
  });
});
