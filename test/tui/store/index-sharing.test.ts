/**
 * The store's indices by actor id in a run of 1,000 items: an update replaces the entries it
 * touched and shares every other one, and the index itself, with the snapshot before (no copy
 * of the actor index, details or cost rows per batch); a task's child list grows in place.
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import {
  applyEvents,
  initialState,
  PersistentMap,
  type TuiState,
} from '../../../src/tui/store/index.ts';
import { testBus } from '../fixture.ts';

const ITEMS = 1_000;
const UPDATED = 500;
const COMMANDER = `commander:visit[${UPDATED}]`;

const model = { provider: 'openai' as const, config: 'main', key: 'fast', apiName: 'gpt' };

function response(actor: string): EventInput {
  return {
    type: 'model.response',
    actor,
    requestId: actor,
    model,
    message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
    usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    costPico: '5000000',
    unpriced: false,
    stopReason: 'end',
    durationMs: 40,
  };
}

function started(index: number): EventInput {
  return {
    type: 'iteration.started',
    actor: 'cursor:visit',
    task: 'visit',
    index,
    itemId: `item-${index}`,
    attempt: 1,
  };
}

function emitted(inputs: readonly EventInput[]): MissionEvent[] {
  const bus = testBus();
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

const OPENING: EventInput[] = [
  { type: 'mission.started', actor: 'mission:m', mission: 'm', inputs: {}, chainedFrom: null },
  { type: 'task.started', actor: 'task:visit', task: 'visit', activatedBy: null, iterated: true },
];

/** The persistent map behind one of the snapshot's indices. */
function persistent<V>(map: ReadonlyMap<string, V>): PersistentMap<string, V> {
  expect(map).toBeInstanceOf(PersistentMap);
  return map as PersistentMap<string, V>;
}

/** The keys whose entry is not the same object in both snapshots, from a full comparison. */
function replacedKeys<V>(after: ReadonlyMap<string, V>, before: ReadonlyMap<string, V>) {
  return [...after.keys()].filter((key) => after.get(key) !== before.get(key));
}

/** 1,000 running items, each answered once by its commander and its reader agent. */
function running(): TuiState {
  const events = emitted([
    ...OPENING,
    ...Array.from({ length: ITEMS }, (_, index): EventInput[] => [
      started(index),
      response(`commander:visit[${index}]`),
      response(`agent:visit[${index}]/reader`),
    ]).flat(),
  ]);
  return applyEvents(initialState(), events);
}

describe('the store’s indices by actor id', () => {
  it('replaces only the actor, detail and cost entries an update touched and shares the rest', () => {
    const before = running();
    const [update] = emitted([response(COMMANDER)]);
    const after = applyEvents(before, [{ ...update!, seq: 1e6 }]);

    // The commander's spend is added to it and its ancestors; nothing else in the tree moves.
    const touchedActors = ['mission:m', 'task:visit', COMMANDER];
    expect(persistent(after.actors).changedSince(persistent(before.actors))).toEqual(touchedActors);
    expect(replacedKeys(after.actors, before.actors)).toEqual(touchedActors);
    expect(persistent(after.details).changedSince(persistent(before.details))).toEqual([COMMANDER]);
    expect(replacedKeys(after.details, before.details)).toEqual([COMMANDER]);
    const byActor = persistent(after.costs.byActor);
    expect(byActor.changedSince(persistent(before.costs.byActor))).toEqual([COMMANDER]);
    expect(replacedKeys(after.costs.byActor, before.costs.byActor)).toEqual([COMMANDER]);
    expect(after.children).toBe(before.children);

    expect(after.actors.size).toBe(before.actors.size);
    // A commander's node sums its own turns and its agents'.
    expect(after.actors.get(COMMANDER)?.tokens).toBe(360);
    expect(before.actors.get(COMMANDER)?.tokens).toBe(240);
    expect(after.actors.get('task:visit')?.tokens).toBe(ITEMS * 240 + 120);
    expect(after.costs.byActor.get(COMMANDER)).toMatchObject({ requests: 2, input: 200 });
    expect(before.costs.byActor.get(COMMANDER)).toMatchObject({ requests: 1, input: 100 });
  });

  it('builds a task’s child list from one add per batch, in order, in one shared array', () => {
    const events = emitted([
      ...OPENING,
      ...Array.from({ length: ITEMS }, (_, index) => started(index)),
    ]);
    const snapshots: TuiState[] = [];
    let state = initialState();
    for (const event of events) {
      state = applyEvents(state, [event]);
      snapshots.push(state);
    }
    // Item 0's commander comes first: an event's own actor is placed after what it changed.
    const commanders = Array.from({ length: ITEMS }, (_, index) => `commander:visit[${index}]`);
    const expected = [commanders[0], 'cursor:visit', ...commanders.slice(1)];
    const last = state.children.get('task:visit')!;
    expect([...last]).toEqual(expected);
    // The snapshot after item 9's start still sees the cursor and items 0 to 9 only.
    const early = snapshots[OPENING.length + 9]!.children.get('task:visit')!;
    expect(early.length).toBe(11);
    expect([...early]).toEqual(expected.slice(0, 11));
    expect(early.at(11)).toBeUndefined();
    expect(early.sharesEntriesWith(last)).toBe(true);

    // A child added to that older snapshot goes to its own copy, not into the newer list.
    const [late] = emitted([started(ITEMS + 1)]);
    const branch = applyEvents(snapshots[OPENING.length + 9]!, [late!]).children.get('task:visit')!;
    expect([...branch]).toEqual([...expected.slice(0, 11), `commander:visit[${ITEMS + 1}]`]);
    expect(branch.sharesEntriesWith(last)).toBe(false);
    expect([...state.children.get('task:visit')!]).toEqual(expected);
  });
});
