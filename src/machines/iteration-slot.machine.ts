/**
 * One slot of a parallel iteration: it runs the tries the iteration hands it, one at a time
 * (each try a fresh `item` actor invoked while `running`), and reports each settled try to the
 * iteration with one `slot.settled` event; a try that throws is reported as a failed try with
 * its reason. Stopping the slot stops its running try (its requests are aborted).
 *
 * Why slots and not one child per try: xstate copies a machine's `children` object on every
 * spawn and stop, so an iteration with 1,024 live tries spent a copy of 1,024 entries (≈ 0.4 ms,
 * the copy site being megamorphic) twice per item. The iteration now spawns at most
 * `concurrency_limit` slots once; a try is spawned and stopped inside its slot, whose children
 * are that one try.
 */
import { assign, fromPromise, sendParent, setup } from 'xstate';
import { ActorNotProvidedError } from './effect-params.ts';
import type { ItemAttemptInput, ItemAttemptOutput, SlotSettledEvent } from './iteration-context.ts';
import { reasonOf } from './turn-types.ts';

/** The iteration hands an idle slot its next try. */
export interface SlotRunEvent {
  type: 'slot.run';
  input: ItemAttemptInput;
}

const slotBase = setup({
  types: {
    input: {} as ItemAttemptInput,
    context: {} as { input: ItemAttemptInput },
    events: {} as SlotRunEvent,
  },
  actors: {
    item: fromPromise<ItemAttemptOutput, ItemAttemptInput>(async () => {
      throw new ActorNotProvidedError('item');
    }),
  },
});

/** A slot starting with the try of its input; provide `item` (one try of one item). */
export const itemSlotMachine = slotBase.createMachine({
  id: 'itemSlot',
  context: ({ input }) => ({ input }),
  initial: 'running',
  states: {
    running: {
      description: 'One try of one item runs; its outcome goes to the iteration.',
      invoke: {
        src: 'item',
        input: ({ context }) => context.input,
        onDone: {
          target: 'idle',
          actions: sendParent(({ self, event }): SlotSettledEvent => ({
            type: 'slot.settled',
            slot: self.id,
            output: event.output,
          })),
        },
        onError: {
          target: 'idle',
          actions: sendParent(({ self, event }): SlotSettledEvent => ({
            type: 'slot.settled',
            slot: self.id,
            output: { status: 'failed', error: reasonOf(event.error) },
          })),
        },
      },
    },
    idle: {
      description: 'Waiting for the next try the iteration hands it.',
      on: {
        'slot.run': { target: 'running', actions: assign({ input: ({ event }) => event.input }) },
      },
    },
  },
});
