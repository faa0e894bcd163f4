import { describe, expect, it } from 'vitest';
import { isJournaled, type MissionEvent } from '../../src/base/events.ts';
import { UsageError } from '../../src/base/errors.ts';
import { forkEvents, forkPointAt } from '../../src/journal/fork-journal.ts';
import { restoreFromJournal } from '../../src/journal/restore.ts';
import { EventBus } from '../../src/runtime/event-bus.ts';
import { sampleRunInputs, steppingClock } from './sample-run.ts';

/** The sample run as its journal holds it: one second between events from 12:00:00. */
function parentJournal(): MissionEvent[] {
  const bus = new EventBus({ runId: 'parent', now: steppingClock('2026-01-01T12:00:00Z') });
  const events: MissionEvent[] = [];
  bus.subscribe((event) => {
    if (isJournaled(event)) events.push(event);
  });
  for (const input of sampleRunInputs(true)) bus.emit(input);
  return events;
}

const response = (event: MissionEvent): boolean =>
  event.type === 'model.response' && event.actor === 'commander:fetch';

describe('forkEvents', () => {
  it("at a model response keeps the events before it and the reply for its actor's next request", () => {
    const parent = parentJournal();
    const point = forkPointAt(parent, parent.find(response)!.seq, 'parent');
    const now = new Date('2026-01-02T08:00:00Z');
    const events = forkEvents(parent, { parentRunId: 'parent', runId: 'child', point, now });
    expect(events.slice(0, -1)).toEqual(
      parent
        .filter((event) => event.seq < point.seq)
        .map((event) => ({ ...event, runId: 'child' })),
    );
    expect(events.at(-1)).toEqual({
      seq: point.seq - 1,
      time: '2026-01-02T08:00:00.000Z',
      runId: 'child',
      actor: 'run',
      type: 'run.forked',
      parentRunId: 'parent',
      atSeq: point.seq,
      at: 'model.response',
      edited: false,
      response: {
        actor: 'commander:fetch',
        message: { role: 'assistant', parts: [{ type: 'text', text: 'answer r1' }] },
        usage: { input: 1000, output: 200, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        stopReason: 'end',
      },
    });
  });

  it('gives resume the parent, the kept reply until its actor has it, and the parent time only', () => {
    const parent = parentJournal();
    const point = forkPointAt(parent, parent.find(response)!.seq, 'parent');
    const events = forkEvents(parent, { parentRunId: 'parent', runId: 'child', point });
    const state = restoreFromJournal('child', events);
    expect(state.forkedFrom).toEqual({ runId: 'parent', seq: point.seq });
    expect(state.pinned?.actor).toBe('commander:fetch');
    // The reply is not counted: the actor sends that request again as the same turn.
    expect(state.answeredTurns.get('commander:fetch')).toBeUndefined();
    // run.started at 12:00:00 to the request at 12:00:03; not up to the fork's time (now).
    expect(state.totals.durationMs).toBe(3000);
    const answered = restoreFromJournal('child', [...events, { ...point, seq: 99 }]);
    expect(answered.pinned).toBeNull();
  });

  it('at a tool result or a mission start keeps the point itself, as edited', () => {
    const parent = parentJournal();
    const started = parent.find((event) => event.type === 'mission.started')!;
    const point = forkPointAt(parent, started.seq, 'parent');
    const edited = { ...point, inputs: { topic: 'moons' } } as typeof point;
    const events = forkEvents(parent, { parentRunId: 'parent', runId: 'child', point, edited });
    expect(events.at(-2)).toEqual({ ...edited, runId: 'child' });
    expect(events.at(-1)).toMatchObject({ type: 'run.forked', atSeq: started.seq, edited: true });
    expect(restoreFromJournal('child', events).missions[0]?.inputs).toEqual({ topic: 'moons' });
  });
});

describe('forkPointAt', () => {
  it('refuses an event that is no fork point and names the nearest ones', () => {
    const parent = parentJournal();
    const refused = (): unknown => forkPointAt(parent, 3, 'parent');
    expect(refused).toThrow(UsageError);
    expect(refused).toThrow(
      "event 3 of run parent is task.started (task:fetch); a fork starts at a model response, a tool result or a mission's start",
    );
    try {
      refused();
    } catch (error) {
      expect((error as UsageError).hint).toBe(
        'the nearest are 2 (mission.started of mission:research), 6 (model.response of commander:fetch), 12 (model.response of agent:weather[0]/researcher)',
      );
    }
  });

  it('names the range of a run that has no such event', () => {
    const parent = parentJournal();
    expect(() => forkPointAt(parent, 500, 'parent')).toThrow(
      `run parent has no event 500 (its events are 1–${parent.at(-1)!.seq})`,
    );
  });
});
