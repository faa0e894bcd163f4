import { createActor, createMachine } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { CursorFacts } from '../../src/machines/dataset-cursor.machine.ts';
import {
  datasetCursorMachine,
  firstItemWithoutOutput,
} from '../../src/machines/dataset-cursor.machine.ts';

const ready: CursorFacts = {
  outputRequired: true,
  acceptedIndexes: [],
  openSubtasks: 0,
  totalSubtasks: 0,
};

function cursor(items: unknown[], startAt?: number) {
  return createActor(datasetCursorMachine, { input: { items, startAt } }).start();
}

function next(actor: ReturnType<typeof cursor>, facts: Partial<CursorFacts> = {}) {
  actor.send({ type: 'cursor.next', facts: { ...ready, ...facts } });
  return actor.getSnapshot().context.reply;
}

describe('dataset cursor', () => {
  it('hands out the first item without preconditions', () => {
    const actor = cursor(['a', 'b']);
    expect(next(actor, { openSubtasks: 2, totalSubtasks: 2 })).toEqual({
      type: 'cursor.handedOut',
      index: 0,
      total: 2,
      item: 'a',
    });
  });

  it('refuses the next item until the current one has an accepted output', () => {
    const actor = cursor(['a', 'b', 'c', 'd']);
    next(actor);
    next(actor, { acceptedIndexes: [0] });
    next(actor, { acceptedIndexes: [0, 1] });
    const before = actor.getSnapshot().context;
    expect(next(actor, { acceptedIndexes: [0, 1] })).toEqual({
      type: 'cursor.rejected',
      error: 'submit_output for item 2 first',
    });
    expect({ ...actor.getSnapshot().context, reply: null }).toEqual({ ...before, reply: null });
  });

  it('ignores outputs when the task has no output schema', () => {
    const actor = cursor(['a', 'b']);
    next(actor);
    expect(next(actor, { outputRequired: false })).toMatchObject({
      type: 'cursor.handedOut',
      index: 1,
    });
  });

  it('refuses the next item while subtasks are open', () => {
    const actor = cursor(['a', 'b']);
    next(actor);
    expect(next(actor, { acceptedIndexes: [0], openSubtasks: 2, totalSubtasks: 4 })).toEqual({
      type: 'cursor.rejected',
      error: 'complete the remaining subtasks first: 2 of 4 open',
    });
    expect(actor.getSnapshot().context.current).toBe(0);
  });

  it('checks the output before the subtasks', () => {
    const actor = cursor(['a', 'b']);
    next(actor);
    expect(next(actor, { openSubtasks: 1, totalSubtasks: 1 })).toMatchObject({
      error: 'submit_output for item 0 first',
    });
  });

  it('answers exhausted after the last item, and on every later call', () => {
    const actor = cursor(['a']);
    next(actor);
    expect(next(actor, { acceptedIndexes: [0] })).toEqual({
      type: 'cursor.exhausted',
      total: 1,
      processed: 1,
    });
    expect(actor.getSnapshot().value).toBe('exhausted');
    expect(actor.getSnapshot().context.current).toBeNull();
    expect(next(actor, { openSubtasks: 3, totalSubtasks: 3 })).toEqual({
      type: 'cursor.exhausted',
      total: 1,
      processed: 1,
    });
  });

  it('answers exhausted at once for an empty dataset', () => {
    expect(next(cursor([]))).toEqual({ type: 'cursor.exhausted', total: 0, processed: 0 });
  });

  it('starts from a given item', () => {
    const actor = cursor(['a', 'b', 'c'], 2);
    expect(next(actor)).toEqual({ type: 'cursor.handedOut', index: 2, total: 3, item: 'c' });
    expect(actor.getSnapshot().context.handedOut).toEqual([2]);
  });

  it('finds where a retry continues: the first item without an accepted output', () => {
    expect(firstItemWithoutOutput(4, [0, 1])).toBe(2);
    expect(firstItemWithoutOutput(4, [1])).toBe(0);
    expect(firstItemWithoutOutput(2, [0, 1])).toBe(2);
  });

  it('sends its reply to replyTo', () => {
    const replies: unknown[] = [];
    const replyTo = createActor(
      createMachine({ on: { '*': { actions: ({ event }) => replies.push(event) } } }),
    ).start();
    const actor = cursor(['a']);
    actor.send({ type: 'cursor.next', facts: ready, replyTo });
    expect(replies).toEqual([{ type: 'cursor.handedOut', index: 0, total: 1, item: 'a' }]);
  });
});
