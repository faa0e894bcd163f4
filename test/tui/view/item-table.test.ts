/**
 * The item table: rows from the store's iteration and response events, sorting by each
 * column, filtering by status and text, and the window of 10,000 rows kept around the cursor.
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { applyEvents, initialState, windowStart } from '../../../src/tui/store/index.ts';
import {
  ITEM_COLUMNS,
  itemLine,
  itemRows,
  queryItems,
  type ItemQuery,
  type ItemRow,
} from '../../../src/tui/view/item-table.ts';
import { testBus } from '../fixture.ts';

function eventsOf(inputs: readonly EventInput[]): MissionEvent[] {
  const bus = testBus();
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

const model = { provider: 'openai' as const, config: 'main', key: 'fast', apiName: 'gpt' };

function response(actor: string, input: number): EventInput {
  return {
    type: 'model.response',
    actor,
    requestId: `${actor}-${input}`,
    model,
    message: { role: 'assistant', parts: [{ type: 'text', text: 'ok' }] },
    usage: { input, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
    costPico: String(input * 1_000_000),
    unpriced: false,
    stopReason: 'end',
    durationMs: 40,
  };
}

const started = (index: number, attempt = 1): EventInput => ({
  type: 'iteration.started',
  actor: `commander:visit[${index}]`,
  task: 'visit',
  index,
  itemId: `item-${index}`,
  attempt,
});

/** Item 0 succeeds in two turns, item 1 fails once and then for good, item 2 still runs. */
const RUN: EventInput[] = [
  started(0),
  started(1),
  started(2),
  response('commander:visit[0]', 100),
  response('agent:visit[0]/reader', 300),
  {
    type: 'iteration.succeeded',
    actor: 'commander:visit[0]',
    task: 'visit',
    index: 0,
    itemId: 'item-0',
    attempt: 1,
    output: { title: 'Oslo', note: 'rain' },
    durationMs: 1_500,
  },
  response('commander:visit[1]', 50),
  {
    type: 'iteration.failed',
    actor: 'commander:visit[1]',
    task: 'visit',
    index: 1,
    itemId: 'item-1',
    attempt: 1,
    error: 'timeout',
    final: false,
  },
  started(1, 2),
  response('commander:visit[1]', 60),
  {
    type: 'iteration.failed',
    actor: 'commander:visit[1]',
    task: 'visit',
    index: 1,
    itemId: 'item-1',
    attempt: 2,
    error: 'the page is gone\nstack and more',
    final: true,
  },
  response('commander:visit[2]', 700),
];

const ALL: ItemQuery = { sort: 'index', descending: false, status: 'all', text: '' };

function row(index: number, patch: Partial<ItemRow>): ItemRow {
  return {
    index,
    commander: `commander:visit[${index}]`,
    status: 'succeeded',
    retries: 0,
    turns: 1,
    tokens: 10,
    costPico: 10n,
    unpriced: false,
    durationMs: 100,
    text: '',
    ...patch,
  };
}

describe('itemRows', () => {
  it('counts retries, turns, tokens, cost and duration of each item from the events', () => {
    const events = eventsOf(RUN);
    const state = applyEvents(initialState(), events);
    // The bus stamps events 100 ms apart: item 1's second attempt started 300 ms before it failed.
    expect(itemRows(state, 'visit')).toEqual([
      row(0, {
        turns: 2,
        tokens: 420,
        costPico: 400_000_000n,
        durationMs: 1_500,
        text: '{"title":"Oslo","note":"rain"}',
      }),
      row(1, {
        status: 'failed',
        retries: 1,
        turns: 2,
        tokens: 130,
        costPico: 110_000_000n,
        durationMs: 200,
        text: 'the page is gone',
      }),
      row(2, {
        status: 'running',
        tokens: 710,
        costPico: 700_000_000n,
        durationMs: null,
        text: '',
      }),
    ]);
    expect(itemRows(state, 'other')).toEqual([]);
  });
});

describe('queryItems', () => {
  const rows = [
    row(0, { status: 'failed', retries: 2, turns: 5, tokens: 30, costPico: 5n, text: 'b' }),
    row(1, { retries: 0, turns: 1, tokens: 90, costPico: 50n, durationMs: null, text: 'c' }),
    row(2, { status: 'running', retries: 1, turns: 3, tokens: 60, costPico: 20n, text: 'a' }),
  ];
  const order = (query: Partial<ItemQuery>): number[] =>
    queryItems(rows, { ...ALL, ...query }).map((item) => item.index);

  it('sorts by each column, ties in index order, and reverses', () => {
    const ascending = Object.fromEntries(ITEM_COLUMNS.map((sort) => [sort, order({ sort })]));
    expect(ascending).toEqual({
      index: [0, 1, 2],
      status: [0, 2, 1],
      retries: [1, 2, 0],
      turns: [1, 2, 0],
      tokens: [0, 2, 1],
      cost: [0, 2, 1],
      // An unfinished item sorts after every finished one.
      duration: [0, 2, 1],
      text: [2, 0, 1],
    });
    expect(order({ sort: 'tokens', descending: true })).toEqual([1, 2, 0]);
  });

  it('keeps the rows of one status and the rows whose index, status or text hold every word', () => {
    expect(order({ status: 'failed' })).toEqual([0]);
    expect(order({ status: 'running' })).toEqual([2]);
    expect(order({ text: 'RUNNING' })).toEqual([2]);
    expect(order({ text: 'c succeeded' })).toEqual([1]);
    expect(order({ text: 'c', status: 'failed' })).toEqual([]);
  });

  it('sorts 10,000 rows and keeps the cursor inside the window', () => {
    const many = Array.from({ length: 10_000 }, (_, index) =>
      row(index, { tokens: (index * 7_919) % 10_000 }),
    );
    const sorted = queryItems(many, { ...ALL, sort: 'tokens', descending: true });
    expect(sorted.slice(0, 3).map((item) => item.tokens)).toEqual([9_999, 9_998, 9_997]);
    expect(windowStart(0, 9_999, 20, sorted.length)).toBe(9_980);
    expect(windowStart(9_980, 9_000, 20, sorted.length)).toBe(9_000);
    expect(windowStart(40, 45, 20, sorted.length)).toBe(40);
  });
});

describe('itemLine', () => {
  it('lays an item out at 80 columns, the text cut to what is left', () => {
    const line = itemLine(
      row(12, {
        status: 'failed',
        retries: 1,
        turns: 4,
        tokens: 1_234,
        costPico: 12_300_000_000n,
        durationMs: 65_000,
        text: 'the page at https://example.com is gone for good',
      }),
      80,
    );
    expect(line).toBe(
      '    12 failed           1      4    1,234  $0.0123   1m 05s  the page at https:…',
    );
    expect(line).toHaveLength(80);
  });
});
