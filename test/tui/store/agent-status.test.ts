/**
 * An agent's status in the tree follows its commander's `call_agent`: running while the call
 * waits, finished once it has returned, running again when it is called again.
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { applyEvents, initialState } from '../../../src/tui/store/index.ts';
import { testBus } from '../fixture.ts';

const COMMANDER = 'commander:forecast[1]';
const AGENT = 'agent:forecast[1]/forecaster';

function eventsOf(inputs: readonly EventInput[]): MissionEvent[] {
  const bus = testBus();
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

function callAgent(callId: string): EventInput {
  return {
    type: 'tool.called',
    actor: COMMANDER,
    callId,
    tool: 'call_agent',
    arguments: '{"name":"forecaster","task":"Forecast Oslo"}',
  };
}

function returned(callId: string, isError: boolean): EventInput {
  return {
    type: 'tool.completed',
    actor: COMMANDER,
    callId,
    tool: 'call_agent',
    result: isError ? 'the agent failed: no data' : 'rain',
    isError,
    durationMs: 40,
  };
}

const agentTurn: EventInput = {
  type: 'tool.called',
  actor: AGENT,
  callId: 'inner',
  tool: 'builtins_utils_current_time',
  arguments: '{}',
};

const start: EventInput[] = [
  {
    type: 'task.started',
    actor: 'task:forecast',
    task: 'forecast',
    activatedBy: null,
    iterated: true,
  },
  {
    type: 'iteration.started',
    actor: 'cursor:forecast',
    task: 'forecast',
    index: 1,
    itemId: 'oslo',
    attempt: 1,
  },
];

function statusAfter(inputs: readonly EventInput[]): string | undefined {
  return applyEvents(initialState(), eventsOf([...start, ...inputs])).actors.get(AGENT)?.status;
}

describe('an agent called with call_agent', () => {
  it('runs while the call waits', () => {
    expect(statusAfter([callAgent('c1'), agentTurn])).toBe('running');
  });

  it('has succeeded once the call returned, while its commander goes on', () => {
    const state = applyEvents(
      initialState(),
      eventsOf([...start, callAgent('c1'), agentTurn, returned('c1', false)]),
    );
    expect(state.actors.get(AGENT)?.status).toBe('succeeded');
    expect(state.actors.get(AGENT)?.activity).toBe('');
    expect(state.actors.get(COMMANDER)?.status).toBe('running');
  });

  it('has failed once the call returned an error', () => {
    expect(statusAfter([callAgent('c1'), agentTurn, returned('c1', true)])).toBe('failed');
  });

  it('runs again when it is called again', () => {
    expect(statusAfter([callAgent('c1'), agentTurn, returned('c1', false), callAgent('c2')])).toBe(
      'running',
    );
  });

  it('is not made up by a call that names no agent that ever ran', () => {
    const state = applyEvents(
      initialState(),
      eventsOf([...start, callAgent('c1'), returned('c1', true)]),
    );
    expect(state.actors.get(AGENT)).toBeUndefined();
  });
});
