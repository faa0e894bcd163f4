import { assign, enqueueActions, setup } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { remainingSubtasksError } from './plan.ts';

/** What the cursor needs to know about the commander when `dataset_next` is called. */
export interface CursorFacts {
  /** The task declares an output schema, so every item needs an accepted output. */
  outputRequired: boolean;
  /** Item indexes that have an accepted output. */
  acceptedIndexes: readonly number[];
  /** Subtasks of the current plan: how many are open, out of how many (0 of 0 without a plan). */
  openSubtasks: number;
  totalSubtasks: number;
}

/** A cursor's answer to `cursor.next`, also sent to the event's `replyTo`. */
export type CursorReply =
  | { type: 'cursor.handedOut'; index: number; total: number; item: unknown }
  | { type: 'cursor.exhausted'; total: number; processed: number }
  | { type: 'cursor.rejected'; error: string };

/** Asks for the next item; the reply goes to `replyTo` and into the cursor's context. */
export interface CursorNextEvent {
  type: 'cursor.next';
  facts: CursorFacts;
  replyTo?: AnyActorRef;
}

export interface DatasetCursorInput {
  items: readonly unknown[];
  /** First item to hand out: a retry continues from the first item without an accepted output. */
  startAt?: number;
}

export interface DatasetCursorContext {
  items: readonly unknown[];
  /** The next index to hand out. */
  position: number;
  /** The item handed out last and not yet left behind; null before the first and after the end. */
  current: number | null;
  /** Indexes this cursor handed out, in order. */
  handedOut: number[];
  /** The last reply, for readers without a `replyTo`. */
  reply: CursorReply | null;
}

/** The index of the first item without an accepted output: where a retried task continues. */
export function firstItemWithoutOutput(total: number, acceptedIndexes: readonly number[]): number {
  const accepted = new Set(acceptedIndexes);
  for (let index = 0; index < total; index += 1) {
    if (!accepted.has(index)) return index;
  }
  return total;
}

/**
 * Hands out the items of a sequential task one by one (tools.md, "Sequential datasets").
 * Preconditions are checked only once an item was handed out; after the last item every
 * call answers `exhausted`.
 */
export const datasetCursorMachine = setup({
  types: {
    context: {} as DatasetCursorContext,
    events: {} as CursorNextEvent,
    input: {} as DatasetCursorInput,
  },
  guards: {
    currentItemLacksOutput: ({ context, event }) =>
      context.current !== null &&
      event.facts.outputRequired &&
      !event.facts.acceptedIndexes.includes(context.current),
    subtasksOpen: ({ context, event }) => context.current !== null && event.facts.openSubtasks > 0,
    itemsRemain: ({ context }) => context.position < context.items.length,
  },
  actions: {
    reply: enqueueActions(({ event, enqueue }, reply: CursorReply) => {
      enqueue.assign({ reply });
      if (event.replyTo !== undefined) enqueue.sendTo(event.replyTo, reply);
    }),
    handOutNext: enqueueActions(({ context, event, enqueue }) => {
      const index = context.position;
      enqueue.assign({
        current: index,
        position: index + 1,
        handedOut: [...context.handedOut, index],
      });
      const reply: CursorReply = {
        type: 'cursor.handedOut',
        index,
        total: context.items.length,
        item: context.items[index],
      };
      enqueue.assign({ reply });
      if (event.replyTo !== undefined) enqueue.sendTo(event.replyTo, reply);
    }),
    leaveLastItem: assign({ current: null }),
  },
}).createMachine({
  id: 'datasetCursor',
  context: ({ input }) => ({
    items: input.items,
    position: Math.min(Math.max(input.startAt ?? 0, 0), input.items.length),
    current: null,
    handedOut: [],
    reply: null,
  }),
  initial: 'handingOut',
  states: {
    handingOut: {
      description:
        'Items remain (or the last one is still being worked on); each call checks its preconditions.',
      on: {
        'cursor.next': [
          {
            guard: 'currentItemLacksOutput',
            actions: {
              type: 'reply',
              params: ({ context }) => ({
                type: 'cursor.rejected',
                error: `submit_output for item ${String(context.current)} first`,
              }),
            },
          },
          {
            guard: 'subtasksOpen',
            actions: {
              type: 'reply',
              params: ({ event }) => ({
                type: 'cursor.rejected',
                error: remainingSubtasksError(event.facts.openSubtasks, event.facts.totalSubtasks),
              }),
            },
          },
          {
            guard: 'itemsRemain',
            actions: 'handOutNext',
          },
          {
            target: 'exhausted',
            actions: [
              'leaveLastItem',
              {
                type: 'reply',
                params: ({ context }) => ({
                  type: 'cursor.exhausted',
                  total: context.items.length,
                  processed: context.position,
                }),
              },
            ],
          },
        ],
      },
    },
    exhausted: {
      description: 'Every item was handed out and finished; every later call answers exhausted.',
      on: {
        'cursor.next': {
          actions: {
            type: 'reply',
            params: ({ context }) => ({
              type: 'cursor.exhausted',
              total: context.items.length,
              processed: context.position,
            }),
          },
        },
      },
    },
  },
});
