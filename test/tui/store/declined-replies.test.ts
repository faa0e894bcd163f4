/** Declined replies and estimated reasoning as the TUI shows them. */
import { describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { applyEvents, initialState } from '../../../src/tui/store/index.ts';
import { costLines } from '../../../src/tui/view/cost-lines.ts';

const ACTOR = 'agent:t/worker';

function response(extra: Partial<Extract<EventInput, { type: 'model.response' }>>): EventInput {
  return {
    type: 'model.response',
    actor: ACTOR,
    requestId: 'request_1',
    model: { provider: 'anthropic', config: 'claude', key: 'sonnet', apiName: 'claude-sonnet' },
    message: { role: 'assistant', parts: [] },
    usage: { input: 100, output: 80, cacheRead: 0, cacheWrite: 0, reasoning: 64 },
    costPico: '0',
    unpriced: false,
    stopReason: 'end',
    durationMs: 10,
    ...extra,
  };
}

function emitted(inputs: EventInput[]): MissionEvent[] {
  const bus = new EventBus({ runId: 'r', now: () => new Date('2026-01-01T00:00:00Z') });
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

describe('declined replies in the TUI', () => {
  it('the event line and the actor errors show the stop reason and what the provider said', () => {
    const events = emitted([
      response({ stopReason: 'refusal', stopDetail: "I can't help with that." }),
    ]);
    const state = applyEvents(initialState(), events);
    expect(state.log.items[0]?.text).toBe(
      `model claude.sonnet: 100 in, 80 out · $0.0000 · 10ms · the model refused (stop reason "refusal"): I can't help with that.`,
    );
    expect(state.details.get(ACTOR)?.errors).toEqual([
      "model stopped (refusal): I can't help with that.",
    ]);
  });

  it('an ordinary reply adds no error', () => {
    const state = applyEvents(initialState(), emitted([response({})]));
    expect(state.details.get(ACTOR)?.errors ?? []).toEqual([]);
  });
});

describe('estimated reasoning in the Costs tab', () => {
  it('marks a reasoning figure that includes an estimate with ~', () => {
    const estimated = { input: 100, output: 80, cacheRead: 0, cacheWrite: 0, reasoning: 64 };
    const state = applyEvents(
      initialState(),
      emitted([
        response({ usage: estimated }),
        response({ requestId: 'request_2', usage: { ...estimated, reasoningEstimated: true } }),
      ]),
    );
    expect(state.costs.total).toMatchObject({ reasoning: 128, reasoningEstimated: true });
    const total = costLines(state.costs, 100)[1]!.text;
    expect(total.trimEnd().split(/\s+/)).toEqual([
      'total',
      '2',
      '200',
      '0',
      '0',
      '160',
      '~128',
      '$0.0000',
    ]);
  });
});
