import { describe, expect, it } from 'vitest';
import { unansweredToolCalls } from '../../src/journal/conversations.ts';
import { restoreFromJournal } from '../../src/journal/restore.ts';
import type { Message } from '../../src/models/model-types.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { steppingClock } from './sample-run.ts';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }] });
const calls = (...ids: string[]): Message => ({
  role: 'assistant',
  parts: [
    { type: 'text', text: 'working' },
    ...ids.map((id) => ({ type: 'tool_call' as const, id, name: `tool_${id}`, arguments: '{}' })),
  ],
});
const results = (...ids: string[]): Message => ({
  role: 'user',
  parts: ids.map((id) => ({
    type: 'tool_result' as const,
    callId: id,
    name: `tool_${id}`,
    content: 'ok',
    isError: false,
  })),
});

describe('restoreFromJournal: conversations', () => {
  it('rebuilds each conversation, forks apart, in append order', () => {
    const bus = new EventBus({ runId: 'r', now: steppingClock('2026-01-01T00:00:00.000Z') });
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const append = (conversation: string, message: Message) =>
      bus.emit({
        type: 'message.appended',
        actor: conversation.replace('#fork', ''),
        conversation,
        message,
      });
    bus.emit({
      type: 'mission.started',
      actor: 'mission:m',
      mission: 'm',
      inputs: {},
      chainedFrom: null,
    });
    append('commander:a', user('objective'));
    append('agent:a/r', user('task'));
    append('commander:a', calls('c1'));
    bus.emit({ type: 'warning', actor: 'run', code: 'x', message: 'noise' });
    append('commander:a#fork', user('question'));
    const state = restoreFromJournal('r', events);
    expect(state.journals.get('m')?.conversations).toEqual(
      new Map([
        ['commander:a', [user('objective'), calls('c1')]],
        ['agent:a/r', [user('task')]],
        ['commander:a#fork', [user('question')]],
      ]),
    );
    expect(state.lastSeq).toBe(6);
    expect(restoreFromJournal('r', []).lastSeq).toBe(0);
  });
});

describe('restoreFromJournal: loaded skills', () => {
  function journalOf(emit: (bus: EventBus) => void): MissionEvent[] {
    const bus = new EventBus({ runId: 'r', now: steppingClock('2026-01-01T00:00:00.000Z') });
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    bus.emit({
      type: 'mission.started',
      actor: 'mission:m',
      mission: 'm',
      inputs: {},
      chainedFrom: null,
    });
    emit(bus);
    return events;
  }
  const load = (bus: EventBus, actor: string, callId: string, args: string, isError?: boolean) => {
    bus.emit({ type: 'tool.called', actor, callId, tool: 'load_skill', arguments: args });
    if (isError === undefined) return;
    bus.emit({
      type: 'tool.completed',
      actor,
      callId,
      tool: 'load_skill',
      result: 'x',
      isError,
      durationMs: 1,
    });
  };

  it('keeps, per agent, the skills whose load_skill call ended without error, in load order', () => {
    const events = journalOf((bus) => {
      load(bus, 'agent:a/r', 'c1', '{"name":"summarizer"}', false);
      load(bus, 'agent:a/r', 'c2', '{"name":"cooking"}', true);
      load(bus, 'agent:a/r', 'c3', '{"name":"web"}', false);
      load(bus, 'agent:a/r', 'c4', '{"name":"web"}', true);
      load(bus, 'agent:b/w', 'c1', '{"name":"web"}', false);
      // Called but killed before its result: not loaded.
      load(bus, 'agent:a/r', 'c5', '{"name":"late"}');
      load(bus, 'agent:a/r', 'c6', '{"name":', false);
    });
    const journal = restoreFromJournal('r', events).journals.get('m');
    expect(journal?.loadedSkills).toEqual(
      new Map([
        ['agent:a/r', ['summarizer', 'web']],
        ['agent:b/w', ['web']],
      ]),
    );
  });

  it("forgets a failed task's agents' skills with their conversations", () => {
    const events = journalOf((bus) => {
      load(bus, 'agent:a/r', 'c1', '{"name":"web"}', false);
      load(bus, 'agent:b/w', 'c1', '{"name":"web"}', false);
      bus.emit({ type: 'task.failed', actor: 'task:a', task: 'a', error: 'x', durationMs: 1 });
    });
    const journal = restoreFromJournal('r', events).journals.get('m');
    expect(journal?.loadedSkills).toEqual(new Map([['agent:b/w', ['web']]]));
  });
});

describe('unansweredToolCalls', () => {
  it('returns the calls of the last assistant message that have no result yet', () => {
    expect(
      unansweredToolCalls([user('go'), calls('c1', 'c2', 'c3'), results('c2')]).map(
        (call) => call.id,
      ),
    ).toEqual(['c1', 'c3']);
  });

  it('returns nothing when every call was answered or there was no assistant turn', () => {
    expect(unansweredToolCalls([user('go'), calls('c1'), results('c1')])).toEqual([]);
    expect(unansweredToolCalls([user('go')])).toEqual([]);
  });

  it('looks only at the last assistant message', () => {
    expect(
      unansweredToolCalls([calls('old'), results('x'), calls('new')]).map((call) => call.id),
    ).toEqual(['new']);
  });
});
