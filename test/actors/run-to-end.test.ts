import { describe, expect, it } from 'vitest';
import { assign, createMachine, fromPromise } from 'xstate';
import { runToEnd } from '../../src/actors/run-to-end.ts';

/** Waits for `wait.end` forever unless cancelled; outputs how it ended. */
const waiting = createMachine({
  types: {} as { input: { label: string }; output: string },
  context: ({ input }) => ({ label: input.label, how: 'running' }),
  initial: 'waiting',
  states: {
    waiting: {
      on: { 'wait.cancel': { target: 'ended', actions: assign({ how: 'cancelled' }) } },
    },
    ended: { type: 'final' },
  },
  output: ({ context, self }) => `${context.label} ${self.id} ${context.how}`,
});

describe('runToEnd', () => {
  it('stops the actor and rejects with an AbortError when the signal aborts', async () => {
    const controller = new AbortController();
    const ending = runToEnd(waiting, { label: 'a' }, controller.signal, 'the wait was cancelled');
    controller.abort();
    await expect(ending).rejects.toMatchObject({
      name: 'AbortError',
      message: 'the wait was cancelled',
    });
  });

  it('lets windDown end the machine on an abort, under the id it was given', async () => {
    const controller = new AbortController();
    const ending = runToEnd(waiting, { label: 'b' }, controller.signal, 'unused', {
      id: 'waiter',
      windDown: (actor) => actor.send({ type: 'wait.cancel' }),
    });
    controller.abort();
    await expect(ending).resolves.toBe('b waiter cancelled');
  });

  it('winds down at once when the signal had aborted before the run', async () => {
    const ending = runToEnd(waiting, { label: 'c' }, AbortSignal.abort(), 'unused', {
      id: 'late',
      windDown: (actor) => actor.send({ type: 'wait.cancel' }),
    });
    await expect(ending).resolves.toBe('c late cancelled');
  });
});

describe('runToEnd on a defect', () => {
  it('stops the children the failed machine left running and rejects with its error', async () => {
    let childSignal: AbortSignal | undefined;
    const failing = createMachine({
      types: {} as { input: Record<string, never> },
      initial: 'working',
      states: {
        working: {
          invoke: {
            src: fromPromise(({ signal }) => {
              childSignal = signal;
              return new Promise<never>(() => {});
            }),
          },
          on: {
            'work.fail': {
              actions: () => {
                throw new Error('a defect');
              },
            },
          },
        },
      },
    });
    const ending = runToEnd(failing, {}, new AbortController().signal, 'unused', {
      created: (actor) => queueMicrotask(() => actor.send({ type: 'work.fail' })),
    });
    await expect(ending).rejects.toThrow('a defect');
    expect(childSignal?.aborted).toBe(true);
  });
});
