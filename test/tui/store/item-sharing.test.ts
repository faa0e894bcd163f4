/**
 * An item's update in a task of 1,000 items replaces that item's record and stats and shares
 * every other item's with the snapshot before: no copy of the task's items per event.
 */
import { describe, expect, it } from 'vitest';
import type { EventInput, MissionEvent } from '../../../src/base/events.ts';
import { applyEvents, initialState, type TuiState } from '../../../src/tui/store/index.ts';
import { testBus } from '../fixture.ts';

const ITEMS = 1_000;
const UPDATED = 500;

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

function emitted(inputs: readonly EventInput[]): MissionEvent[] {
  const bus = testBus();
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  for (const input of inputs) bus.emit(input);
  return events;
}

/** 1,000 running items, each answered once; then item 500 answered again and succeeded. */
function snapshots(): { before: TuiState; after: TuiState } {
  const events = emitted([
    ...Array.from({ length: ITEMS }, (_, index): EventInput[] => [
      {
        type: 'iteration.started',
        actor: 'cursor:visit',
        task: 'visit',
        index,
        itemId: `item-${index}`,
        attempt: 1,
      },
      response(`commander:visit[${index}]`),
    ]).flat(),
    response(`agent:visit[${UPDATED}]/reader`),
    {
      type: 'iteration.succeeded',
      actor: 'cursor:visit',
      task: 'visit',
      index: UPDATED,
      itemId: `item-${UPDATED}`,
      attempt: 1,
      output: 'done',
      durationMs: 250,
    },
  ]);
  const before = applyEvents(initialState(), events.slice(0, -2));
  // One batch per event, as a live run's store may publish them.
  const after = applyEvents(applyEvents(before, events.slice(-2, -1)), events.slice(-1));
  return { before, after };
}

describe('the store’s items of an iterated task', () => {
  it('replaces only the updated item and shares every other item’s chunk and record', () => {
    const { before, after } = snapshots();
    const itemsBefore = before.outputs.get('visit')!.items;
    const itemsAfter = after.outputs.get('visit')!.items;
    const statsBefore = before.itemStats.get('visit')!;
    const statsAfter = after.itemStats.get('visit')!;
    expect(itemsAfter.size).toBe(ITEMS);
    expect(itemsAfter.changedSince(itemsBefore)).toEqual([UPDATED]);
    expect(statsAfter.changedSince(statsBefore)).toEqual([UPDATED]);
    const replaced: number[] = [];
    for (let index = 0; index < ITEMS; index++) {
      const item = itemsAfter.get(index) !== itemsBefore.get(index);
      if (item || statsAfter.get(index) !== statsBefore.get(index)) replaced.push(index);
    }
    expect(replaced).toEqual([UPDATED]);
    // Items sit in chunks of 64: only the chunk of item 500 (448–511) is a new array.
    const copiedChunks: number[] = [];
    for (let index = 0; index < ITEMS; index += 64) {
      const item = itemsAfter.chunkOf(index) !== itemsBefore.chunkOf(index);
      if (item || statsAfter.chunkOf(index) !== statsBefore.chunkOf(index)) {
        copiedChunks.push(index / 64);
      }
    }
    expect(copiedChunks).toEqual([7]);
    expect(itemsAfter.get(UPDATED)).toEqual({
      index: UPDATED,
      itemId: `item-${UPDATED}`,
      status: 'succeeded',
      output: 'done',
      error: null,
    });
    expect(statsAfter.get(UPDATED)).toEqual({
      attempt: 1,
      turns: 2,
      tokens: 240,
      costPico: 10_000_000n,
      unpriced: false,
      startedAt: statsBefore.get(UPDATED)!.startedAt,
      durationMs: 250,
    });
    expect(itemsBefore.get(UPDATED)!.status).toBe('running');
  });
});
