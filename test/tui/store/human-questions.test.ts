import { describe, expect, it } from 'vitest';
import { applyEvents, initialState } from '../../../src/tui/store/index.ts';
import { testBus } from '../fixture.ts';
import type { MissionEvent } from '../../../src/base/events.ts';

const ASKER = 'agent:decide/asker';

function asked(callId: string, question: string) {
  return {
    type: 'human.asked' as const,
    actor: ASKER,
    callId,
    question,
    choices: [],
    multiSelect: false,
    shortSummary: null,
    additionalContext: null,
    timeoutSeconds: null,
  };
}

describe('questions to the person in the TUI store', () => {
  it('keeps each question open until its answer and marks the asking actor meanwhile', () => {
    const bus = testBus();
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    bus.emit(asked('c1', 'Which region should the deploy go to first?\nDetails follow.'));
    bus.emit(asked('c2', 'Ship it?'));
    const waiting = applyEvents(initialState(), events);
    expect(waiting.questions.map((question) => question.callId)).toEqual(['c1', 'c2']);
    const { type: _type, ...first } = asked(
      'c1',
      'Which region should the deploy go to first?\nDetails follow.',
    );
    expect(waiting.questions[0]).toEqual(first);
    expect(waiting.actors.get(ASKER)?.activity).toBe(
      '? asks you: Which region should the deploy go to fi…',
    );

    bus.emit({
      type: 'human.answered',
      actor: ASKER,
      callId: 'c1',
      answer: 'eu',
      how: 'person',
      durationMs: 5,
    });
    const answered = applyEvents(waiting, events.slice(2));
    expect(answered.questions.map((question) => question.callId)).toEqual(['c2']);
    expect(answered.actors.get(ASKER)?.activity).toBe('? asks you: Ship it?');
    expect(waiting.questions).toHaveLength(2);
    bus.emit({
      type: 'human.answered',
      actor: ASKER,
      callId: 'c2',
      answer: 'no',
      how: 'timeout',
      durationMs: 9,
    });
    expect(applyEvents(answered, events.slice(3)).actors.get(ASKER)?.activity).toBe('');
  });
});
