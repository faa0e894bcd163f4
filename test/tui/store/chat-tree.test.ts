/**
 * A chat's tree (`sortie chat`): the agent talked to is the one root, with no empty commander,
 * task or mission above it; it ends with the chat and fails as the chat's task does.
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { applyEvents, initialState, ROOT } from '../../../src/tui/store/index.ts';
import { testBus } from '../fixture.ts';

const AGENT = 'agent:chat/fetcher';

function eventsOf(inputs: readonly EventInput[]): MissionEvent[] {
  const bus = testBus();
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

const chat: EventInput[] = [
  {
    type: 'run.started',
    actor: 'run',
    mission: 'chat',
    resumed: false,
    chat: { agent: 'fetcher' },
  },
  {
    type: 'mission.started',
    actor: 'mission:chat',
    mission: 'chat',
    inputs: {},
    chainedFrom: null,
  },
  { type: 'task.started', actor: 'task:chat', task: 'chat', activatedBy: null, iterated: false },
  {
    type: 'tool.called',
    actor: AGENT,
    callId: 'c1',
    tool: 'builtins_http_get',
    arguments: '{"url":"http://127.0.0.1/users"}',
  },
];

describe('the tree of a chat', () => {
  it('has the chat agent as its one root, with nothing above it', () => {
    const state = applyEvents(initialState(), eventsOf(chat));
    expect([...(state.children.get(ROOT) ?? [])]).toEqual([AGENT]);
    expect([...state.actors.keys()]).toEqual([AGENT]);
    expect(state.actors.get(AGENT)).toMatchObject({
      kind: 'agent',
      label: 'fetcher',
      parent: null,
      status: 'running',
    });
  });

  it('ends the agent with the chat', () => {
    const state = applyEvents(
      initialState(),
      eventsOf([
        ...chat,
        { type: 'mission.succeeded', actor: 'mission:chat', mission: 'chat', durationMs: 90 },
      ]),
    );
    expect(state.actors.get(AGENT)?.status).toBe('succeeded');
  });

  it("shows a failed chat as a failed task: its node failed with the task's error, once", () => {
    const state = applyEvents(
      initialState(),
      eventsOf([
        ...chat,
        {
          type: 'task.failed',
          actor: 'task:chat',
          task: 'chat',
          error: 'the agent stopped without an answer',
          durationMs: 80,
        },
        {
          type: 'mission.failed',
          actor: 'mission:chat',
          mission: 'chat',
          error: 'task "chat" failed: the agent stopped without an answer',
          failedTask: 'chat',
          durationMs: 90,
        },
      ]),
    );
    expect([...state.actors.keys()]).toEqual([AGENT]);
    expect(state.actors.get(AGENT)?.status).toBe('failed');
    expect(state.details.get(AGENT)?.errors).toEqual(['the agent stopped without an answer']);
    expect([...state.details.keys()]).toEqual([AGENT]);
    expect(state.outputs.get('chat')?.status).toBe('failed');
  });
});
