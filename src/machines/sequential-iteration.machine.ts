/**
 * Sequential iteration (runtime.md "Iteration"): one commander works through the items with
 * `dataset_next` (its dataset cursor). When it fails and tries remain, a fresh commander — the
 * provided `commander` actor, started again — continues from the first item without an
 * accepted output; outputs accepted by earlier tries are kept.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import { firstItemWithoutOutput } from './dataset-cursor.machine.ts';
import { ActorNotProvidedError, noEffect } from './effect-params.ts';
import type { ItemRetryingParams } from './iteration-context.ts';
import { reasonOf } from '../base/reason.ts';

/** What a sequential iteration starts from; resumed, the outputs the journal kept. */
export interface SequentialIterationInput {
  /** Items in the dataset. */
  total: number;
  /** `1 + max_retries`. */
  maxAttempts: number;
  acceptedOutputs?: Record<number, unknown>;
}

/** What the `commander` actor receives: its try and the outputs accepted so far. */
export interface SequentialAttemptInput {
  attempt: number;
  acceptedOutputs: Record<number, unknown>;
}

/** How one commander ended: its item outputs, and its completion or why it failed. */
export type SequentialAttemptOutput = { itemOutputs: Record<number, unknown> } & (
  | {
      status: 'succeeded';
      summary: string;
      route: string | null;
      missionInputs: Record<string, unknown> | null;
    }
  | { status: 'failed'; error: string }
);

/** The sequential iteration's context. */
export interface SequentialIterationContext {
  total: number;
  maxAttempts: number;
  attempt: number;
  acceptedOutputs: Record<number, unknown>;
  completion: Extract<SequentialAttemptOutput, { status: 'succeeded' }> | null;
  error: string | null;
}

/** How the sequential iteration ended. */
export interface SequentialIterationOutput {
  status: 'succeeded' | 'failed';
  completion: SequentialIterationContext['completion'];
  acceptedOutputs: Record<number, unknown>;
  error: string | null;
}

/** A failed try: the outputs it accepted and why it failed. */
interface FailedTry {
  itemOutputs: Record<number, unknown>;
  error: string;
}

const sequentialBase = setup({
  types: {
    input: {} as SequentialIterationInput,
    context: {} as SequentialIterationContext,
    output: {} as SequentialIterationOutput,
  },
  actors: {
    commander: fromPromise<SequentialAttemptOutput, SequentialAttemptInput>(async () => {
      throw new ActorNotProvidedError('commander');
    }),
  },
  guards: {
    attemptSucceeded: (_, output: SequentialAttemptOutput) => output.status === 'succeeded',
    triesLeft: ({ context }) => context.attempt < context.maxAttempts,
  },
  actions: {
    itemRetrying: (_, _params: ItemRetryingParams) => noEffect(),
    acceptCompletion: assign(({ context }, output: SequentialAttemptOutput) => ({
      acceptedOutputs: { ...context.acceptedOutputs, ...output.itemOutputs },
      completion: output.status === 'succeeded' ? output : null,
    })),
    keepFailedTry: assign(({ context }, failed: FailedTry) => ({
      acceptedOutputs: { ...context.acceptedOutputs, ...failed.itemOutputs },
      error: failed.error,
    })),
  },
});

/** The next try: a fresh commander, announced at the item it will continue from. */
const retry = sequentialBase.createAction(
  enqueueActions(({ context, enqueue }) => {
    const accepted = Object.keys(context.acceptedOutputs).map(Number);
    const index = firstItemWithoutOutput(context.total, accepted);
    const attempt = context.attempt + 1;
    const error = context.error ?? '';
    enqueue({
      type: 'itemRetrying',
      params: { index, attempt, maxAttempts: context.maxAttempts, error },
    });
    enqueue.assign({ attempt });
  }),
);

/** The sequential iteration machine; provide `commander` and the `itemRetrying` effect. */
export const sequentialIterationMachine = sequentialBase
  .extend({ actions: { retry } })
  .createMachine({
    id: 'sequentialIteration',
    context: ({ input }) => ({
      total: input.total,
      maxAttempts: input.maxAttempts,
      attempt: 1,
      acceptedOutputs: { ...input.acceptedOutputs },
      completion: null,
      error: null,
    }),
    initial: 'working',
    states: {
      working: {
        description: 'A commander works through the items from the first one without an output.',
        invoke: {
          src: 'commander',
          input: ({ context }) => ({
            attempt: context.attempt,
            acceptedOutputs: context.acceptedOutputs,
          }),
          onDone: [
            {
              guard: { type: 'attemptSucceeded', params: ({ event }) => event.output },
              target: 'succeeded',
              actions: { type: 'acceptCompletion', params: ({ event }) => event.output },
            },
            {
              target: 'judgingFailure',
              actions: {
                type: 'keepFailedTry',
                params: ({ event }) => ({
                  itemOutputs: event.output.itemOutputs,
                  error: event.output.status === 'failed' ? event.output.error : '',
                }),
              },
            },
          ],
          onError: {
            target: 'judgingFailure',
            actions: {
              type: 'keepFailedTry',
              params: ({ event }) => ({ itemOutputs: {}, error: reasonOf(event.error) }),
            },
          },
        },
      },
      judgingFailure: {
        description: 'The commander failed: a fresh one tries again while tries remain.',
        always: [{ guard: 'triesLeft', target: 'working', actions: 'retry' }, { target: 'failed' }],
      },
      succeeded: { description: 'A commander completed the task.', type: 'final' },
      failed: { description: 'The last try failed too.', type: 'final' },
    },
    output: ({ context }) => ({
      status: context.completion !== null ? 'succeeded' : 'failed',
      completion: context.completion,
      acceptedOutputs: context.acceptedOutputs,
      error: context.error,
    }),
  });
