/**
 * The item table's rows kept between frames equal a full rebuild after every batch of random
 * item events, under random sorts and filters; rows of items a batch left alone stay the
 * same objects (the memoised row components skip them).
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import {
  applyEvents,
  initialState,
  ItemVector,
  type TuiState,
} from '../../../src/tui/store/index.ts';
import { ItemRowCache } from '../../../src/tui/view/item-rows.ts';
import {
  ITEM_COLUMNS,
  ITEM_STATUSES,
  itemRows,
  queryItems,
  type ItemQuery,
} from '../../../src/tui/view/item-table.ts';
import { testBus } from '../fixture.ts';

/** A seeded generator (mulberry32): the same cases on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ITEMS = 300;
const WORDS = ['', 'fail', 'done 1', 'running', '7', 'gone page', 'SUCCEEDED'];
const model = { provider: 'openai' as const, config: 'main', key: 'fast', apiName: 'gpt' };

function randomEvent(random: () => number): EventInput {
  const pick = (count: number): number => Math.floor(random() * count);
  const index = pick(ITEMS);
  const item = { task: 'visit', index, itemId: `item-${index}` };
  switch (pick(6)) {
    case 0:
      return { type: 'iteration.started', actor: 'cursor:visit', ...item, attempt: 1 + pick(3) };
    case 1:
      return {
        type: 'iteration.succeeded',
        actor: 'cursor:visit',
        ...item,
        attempt: 1,
        output: pick(2) === 0 ? `done ${pick(40)}` : { page: pick(9) },
        durationMs: pick(5) * 100,
      };
    case 2:
      return {
        type: 'iteration.failed',
        actor: 'cursor:visit',
        ...item,
        attempt: 1,
        error: `the page is gone ${pick(5)}`,
        final: pick(2) === 0,
      };
    default: {
      const actor = pick(2) === 0 ? `commander:visit[${index}]` : `agent:visit[${index}]/reader`;
      return {
        type: 'model.response',
        actor,
        requestId: actor,
        model,
        message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
        usage: { input: pick(4) * 50, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        costPico: String(pick(4) * 1_000_000),
        unpriced: pick(8) === 0,
        stopReason: 'end',
        durationMs: 40,
      };
    }
  }
}

function randomQuery(random: () => number): ItemQuery {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  return {
    sort: pick(ITEM_COLUMNS),
    descending: random() < 0.5,
    status: pick(ITEM_STATUSES),
    text: pick(WORDS),
  };
}

function kept(state: TuiState, cache: ItemRowCache, query: ItemQuery) {
  const items = state.outputs.get('visit')?.items ?? ItemVector.empty();
  return cache.update('visit', items, state.itemStats.get('visit') ?? ItemVector.empty(), query);
}

describe('ItemRowCache', () => {
  it('keeps the rows a full rebuild gives, batch after batch, under random sorts and filters', () => {
    const random = seeded(30);
    const bus = testBus();
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const cache = new ItemRowCache();
    let state = initialState();
    let query = randomQuery(random);
    let compared = 0;
    for (let batch = 0; batch < 150; batch++) {
      events.length = 0;
      const size = 1 + Math.floor(random() * (batch % 10 === 0 ? 200 : 8));
      for (let count = 0; count < size; count++) bus.emit(randomEvent(random));
      state = applyEvents(state, events);
      if (random() < 0.1) query = randomQuery(random);
      const { rows, total } = kept(state, cache, query);
      const full = itemRows(state, 'visit');
      expect(total).toBe(full.length);
      expect(rows).toEqual(queryItems(full, query));
      compared += rows.length;
    }
    // The random filters left rows to compare in most batches.
    expect(compared).toBeGreaterThan(5_000);
  });

  it('keeps the row objects of items a batch did not touch, and the list when none changed', () => {
    const bus = testBus();
    const events: MissionEvent[] = [];
    bus.subscribe((event) => events.push(event));
    for (let index = 0; index < 100; index++) {
      bus.emit({
        type: 'iteration.started',
        actor: 'cursor:visit',
        task: 'visit',
        index,
        itemId: `item-${index}`,
        attempt: 1,
      });
    }
    const cache = new ItemRowCache();
    const query: ItemQuery = { sort: 'status', descending: false, status: 'all', text: '' };
    const first = applyEvents(initialState(), events);
    const before = kept(first, cache, query).rows;
    expect(kept(first, cache, query).rows).toBe(before);
    events.length = 0;
    bus.emit({
      type: 'iteration.failed',
      actor: 'cursor:visit',
      task: 'visit',
      index: 42,
      itemId: 'item-42',
      attempt: 1,
      error: 'gone',
      final: true,
    });
    const after = kept(applyEvents(first, events), cache, query).rows;
    // `failed` sorts before `running`: item 42 moves to the top, the others keep their objects.
    expect(after.map((row) => row.index).slice(0, 3)).toEqual([42, 0, 1]);
    const others = before.filter((row) => row.index !== 42);
    expect(after).toHaveLength(100);
    expect(after.slice(1).every((row, at) => row === others[at])).toBe(true);
  });
});
