/**
 * Parallel iteration of a task over its dataset (runtime.md "Iteration"): the rules are states
 * and guards here — concurrency, the start delay of the first batch, the smoke test, retries
 * with a fresh item actor per try, fail-fast and keep-going. Items are taken from a counter;
 * at most `concurrencyLimit` item actors are alive, each stopped as soon as it settles, and a
 * settled item leaves only counts here (its record goes out through the `item*` effects).
 *
 * The item's work — one commander for one try of one item — is the provided `item` actor, so a
 * distributed runner can provide one that hands the item to a queue instead.
 */
import { enqueueActions, fromPromise, setup } from 'xstate';
import { ActorNotProvidedError, noEffect } from './effect-params.ts';
import type {
  ItemAttemptInput,
  ItemAttemptOutput,
  ItemEvent,
  ItemFailedParams,
  ItemRetryingParams,
  ItemStartedParams,
  ItemSucceededParams,
  LiveItem,
  ParallelIterationContext,
  ParallelIterationInput,
  ParallelIterationOutput,
} from './iteration-context.ts';
import {
  canTakeItem,
  failsTheTask,
  firstAttemptOf,
  firstBatchSize,
  iterationError,
  parallelContext,
  settledAttempt,
  triesLeft,
} from './iteration-context.ts';

const parallelBase = setup({
  types: {
    input: {} as ParallelIterationInput,
    context: {} as ParallelIterationContext,
    events: {} as ItemEvent,
    output: {} as ParallelIterationOutput,
  },
  actors: {
    item: fromPromise<ItemAttemptOutput, ItemAttemptInput>(async () => {
      throw new ActorNotProvidedError('item');
    }),
  },
  delays: {
    startDelay: ({ context }) => context.settings.startDelay,
  },
  guards: {
    smokeTestFirst: ({ context }) => context.settings.smoketest && !context.skipped.has(0),
    /** A done event of an actor that is not live (stopped already) changes nothing. */
    notLiveItem: ({ context, event }) => settledAttempt(context, event) === undefined,
    attemptFailedWithTriesLeft: ({ context, event }) => {
      const settled = settledAttempt(context, event);
      return settled !== undefined && settled.failure !== null && triesLeft(context, settled);
    },
    attemptFailed: ({ context, event }) =>
      (settledAttempt(context, event)?.failure ?? null) !== null,
    itemFailureFailsTheTask: ({ context, event }) => failsTheTask(context, event),
    everySlotOpen: ({ context }) => context.slots >= context.slotLimit,
    everyItemSettled: ({ context }) => context.live.length === 0 && !canTakeItem(context),
  },
  actions: {
    itemStarted: (_, _params: ItemStartedParams) => noEffect(),
    itemSucceeded: (_, _params: ItemSucceededParams) => noEffect(),
    itemFailed: (_, _params: ItemFailedParams) => noEffect(),
    itemRetrying: (_, _params: ItemRetryingParams) => noEffect(),
  },
});

const action = parallelBase.createAction;

/** Try `attempt` of item `index` in actor `id`: its live entry and its item actor's input. */
function itemTry(
  context: ParallelIterationContext,
  index: number,
  attempt: number,
  id: string,
): { entry: LiveItem; input: ItemAttemptInput } {
  const mayContinue = attempt === firstAttemptOf(context, index);
  return { entry: { id, index, attempt }, input: { index, attempt, mayContinue } };
}

/**
 * The free slots' actor ids, lowest first: the slot number. Ids name slots, not items, because xstate
 * caches the transitions of each event type it sees (`xstate.done.actor.<id>`: one entry per
 * item for the whole run before); and they are integer-like because xstate copies its children
 * object on every spawn and stop. Named keys made each copy build V8 hidden classes key by key
 * (about 7 ms per item at 1,024 live items); integer keys are copied as elements (microseconds).
 */
function* freeSlotIds(live: readonly LiveItem[]): Generator<string, never> {
  const taken = new Set(live.map((entry) => entry.id));
  for (let slot = 0; ; slot += 1) if (!taken.has(String(slot))) yield String(slot);
}

/** Takes items from the counter while a slot is free; resumed runs skip succeeded items. */
const takeItems = action(
  enqueueActions(({ context, enqueue }) => {
    let next = context.next;
    const live = [...context.live];
    const slotIds = freeSlotIds(context.live);
    while (live.length < context.slots && !context.stopping) {
      while (next < context.settings.total && context.skipped.has(next)) next += 1;
      if (next >= context.settings.total) break;
      const attempt = firstAttemptOf(context, next);
      const { entry, input } = itemTry(context, next, attempt, slotIds.next().value);
      enqueue({ type: 'itemStarted', params: { index: next, attempt: entry.attempt } });
      enqueue.spawnChild('item', { id: entry.id, input });
      live.push(entry);
      next += 1;
    }
    if (next !== context.next || live.length !== context.live.length) {
      enqueue.assign({ next, live });
    }
  }),
);

/** The settled try is over: its actor is stopped and its entry leaves the live list. */
function release(context: ParallelIterationContext, id: string) {
  return context.live.filter((entry) => entry.id !== id);
}

/** The parallel iteration machine; provide `item` (one try of one item) and the `item*` effects. */
export const parallelIterationMachine = parallelBase
  .extend({
    actions: {
      takeItems,
      /** The smoke test: item 0 to the end before any other item starts. */
      startSmokeTest: action(
        enqueueActions(({ context, enqueue }) => {
          const { entry, input } = itemTry(context, 0, firstAttemptOf(context, 0), '0');
          enqueue({ type: 'itemStarted', params: { index: 0, attempt: entry.attempt } });
          enqueue.spawnChild('item', { id: entry.id, input });
          enqueue.assign({ live: [entry], next: 1 });
        }),
      ),
      /** Opens the next slot of the first batch (every slot at once without a start delay). */
      openSlot: action(
        enqueueActions(({ context, enqueue }) => {
          const slotLimit = context.slots === 0 ? firstBatchSize(context) : context.slotLimit;
          const slots = context.settings.startDelay > 0 ? context.slots + 1 : slotLimit;
          enqueue.assign({ slotLimit, slots: Math.min(slots, slotLimit) });
        }),
      ),
      retryItem: action(
        enqueueActions(({ context, event, enqueue }) => {
          const settled = settledAttempt(context, event);
          if (settled === undefined || settled.failure === null) return;
          const { index, attempt, failure } = settled;
          const maxAttempts = context.settings.maxAttempts;
          enqueue({ type: 'itemFailed', params: { index, attempt, error: failure, final: false } });
          enqueue({
            type: 'itemRetrying',
            params: { index, attempt: attempt + 1, maxAttempts, error: failure },
          });
          enqueue.stopChild(settled.id);
          const { entry, input } = itemTry(context, index, attempt + 1, settled.id);
          enqueue({ type: 'itemStarted', params: { index, attempt: entry.attempt } });
          enqueue.spawnChild('item', { id: entry.id, input });
          enqueue.assign({ live: [...release(context, settled.id), entry] });
        }),
      ),
      failItem: action(
        enqueueActions(({ context, event, enqueue }) => {
          const settled = settledAttempt(context, event);
          if (settled === undefined || settled.failure === null) return;
          const { index, attempt, failure } = settled;
          enqueue({ type: 'itemFailed', params: { index, attempt, error: failure, final: true } });
          enqueue.stopChild(settled.id);
          enqueue.assign({
            live: release(context, settled.id),
            failed: context.failed + 1,
            firstFailure: context.firstFailure ?? { index, error: failure },
          });
        }),
      ),
      succeedItem: action(
        enqueueActions(({ context, event, enqueue }) => {
          const settled = settledAttempt(context, event);
          if (settled === undefined || settled.failure !== null) return;
          const { index, attempt, output, durationMs } = settled;
          enqueue({ type: 'itemSucceeded', params: { index, attempt, output, durationMs } });
          enqueue.stopChild(settled.id);
          enqueue.assign({ live: release(context, settled.id), succeeded: context.succeeded + 1 });
        }),
      ),
      /** Fail-fast: the other running items are stopped (their requests aborted), none is taken. */
      cancelLiveItems: action(
        enqueueActions(({ context, enqueue }) => {
          for (const entry of context.live) enqueue.stopChild(entry.id);
          enqueue.assign({ live: [], stopping: true });
        }),
      ),
    },
  })
  .createMachine({
    id: 'parallelIteration',
    context: ({ input }) => parallelContext(input),
    initial: 'choosingStart',
    states: {
      choosingStart: {
        description: 'A smoke test runs item 0 alone first, unless a resumed run had it succeed.',
        always: [{ guard: 'smokeTestFirst', target: 'smokeTesting' }, { target: 'launching' }],
      },
      smokeTesting: {
        description: 'Item 0 runs to the end, retries included; its final failure skips the rest.',
        entry: 'startSmokeTest',
        on: {
          'xstate.done.actor.*': [
            { guard: 'notLiveItem' },
            { guard: 'attemptFailedWithTriesLeft', actions: 'retryItem' },
            { guard: 'attemptFailed', target: 'finished', actions: 'failItem' },
            { target: 'launching', actions: 'succeedItem' },
          ],
          'xstate.error.actor.*': [
            { guard: 'notLiveItem' },
            { guard: 'attemptFailedWithTriesLeft', actions: 'retryItem' },
            { target: 'finished', actions: 'failItem' },
          ],
        },
      },
      launching: {
        description:
          'The first batch starts one slot per start_delay; a freed slot takes the next item at once.',
        entry: ['openSlot', 'takeItems'],
        after: { startDelay: { target: 'launching', reenter: true } },
        always: [
          { guard: 'everyItemSettled', target: 'finished' },
          { guard: 'everySlotOpen', target: 'running' },
        ],
        on: settleTransitions(),
      },
      running: {
        description: 'Every slot is open: each settled item frees its slot for the next one.',
        always: { guard: 'everyItemSettled', target: 'finished' },
        on: settleTransitions(),
      },
      finished: {
        description: 'Every item settled, or the smoke test or a fail-fast failure ended the task.',
        type: 'final',
      },
    },
    output: ({ context }) => ({
      succeeded: context.succeeded,
      failed: context.failed,
      firstFailure: context.firstFailure,
      error: iterationError(context),
    }),
  });

/** What a settled try does once the smoke test is over (launching and running alike). */
function settleTransitions() {
  const onFailure = [
    { guard: 'notLiveItem' },
    { guard: 'attemptFailedWithTriesLeft', actions: 'retryItem' },
    {
      guard: 'itemFailureFailsTheTask',
      target: 'finished',
      actions: ['failItem', 'cancelLiveItems'],
    },
  ] as const;
  return {
    'xstate.done.actor.*': [
      ...onFailure,
      { guard: 'attemptFailed', actions: ['failItem', 'takeItems'] },
      { actions: ['succeedItem', 'takeItems'] },
    ],
    'xstate.error.actor.*': [...onFailure, { actions: ['failItem', 'takeItems'] }],
  } as const;
}
