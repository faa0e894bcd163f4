/**
 * Parallel iteration of a task over its dataset (runtime.md "Iteration"): the rules are states
 * and guards here — concurrency, the start delay of the first batch, the smoke test, retries
 * with a fresh item actor per try, fail-fast and keep-going. Items are taken from a counter;
 * at most `concurrencyLimit` slots run tries, each try a child `item` actor of this machine
 * (spawned, stopped once it settled or when fail-fast cancels it), and a settled item leaves
 * only counts here (its record goes out through the `item*` effects).
 *
 * The item's work — one commander for one try of one item — is the provided `item` actor
 * (`withItemActor`), so a distributed runner can provide one that hands the item to a queue.
 */
import { and, enqueueActions, fromPromise, setup, type PromiseActorLogic } from 'xstate';
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
  firstAttemptOf,
  firstBatchSize,
  iterationError,
  parallelContext,
  settledAttempt,
  slotOf,
  triesLeft,
  tryId,
} from './iteration-context.ts';

/** One try of one item (provided by the wiring: a commander here, or a queued job). */
export type ItemLogic = PromiseActorLogic<ItemAttemptOutput, ItemAttemptInput>;

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
    attemptFailed: ({ context, event }) =>
      (settledAttempt(context, event)?.failure ?? null) !== null,
    /** The settled try's item has another try. */
    triesLeft: ({ context, event }) => {
      const settled = settledAttempt(context, event);
      return settled !== undefined && triesLeft(context, settled);
    },
    /** Without keep-going, an item's final failure fails the task at once. */
    failFast: ({ context }) => !context.settings.keepGoing,
    everySlotOpen: ({ context }) => context.slots >= context.slotLimit,
    everyItemSettled: ({ context }) => context.liveCount === 0 && !canTakeItem(context),
  },
  actions: {
    itemStarted: (_, _params: ItemStartedParams) => noEffect(),
    itemSucceeded: (_, _params: ItemSucceededParams) => noEffect(),
    itemFailed: (_, _params: ItemFailedParams) => noEffect(),
    itemRetrying: (_, _params: ItemRetryingParams) => noEffect(),
  },
});

const action = parallelBase.createAction;

/** Try `attempt` of item `index` in `slot`: its live entry and its item actor's input. */
function itemTry(
  context: ParallelIterationContext,
  index: number,
  attempt: number,
  slot: number,
): { entry: LiveItem; input: ItemAttemptInput } {
  const mayContinue = attempt === firstAttemptOf(context, index);
  const entry = { id: tryId(slot), index, attempt };
  return { entry, input: { index, attempt, mayContinue } };
}

/** The free slots, lowest first (at most `concurrencyLimit` of them). */
function freeSlots(live: readonly (LiveItem | undefined)[], count: number): number[] {
  const free: number[] = [];
  for (let slot = 0; free.length < count; slot += 1) if (live[slot] === undefined) free.push(slot);
  return free;
}

/** The next items to start while a slot is free (resumed runs skip succeeded items). */
function itemsToTake(context: ParallelIterationContext): { indexes: number[]; next: number } {
  const { total } = context.settings;
  const indexes: number[] = [];
  let next = context.next;
  while (context.liveCount + indexes.length < context.slots && !context.stopping) {
    while (next < total && context.skipped.has(next)) next += 1;
    if (next >= total) break;
    indexes.push(next);
    next += 1;
  }
  return { indexes, next };
}

/** Takes items from the counter while a slot is free; resumed runs skip succeeded items. */
const takeItems = action(
  enqueueActions(({ context, enqueue }) => {
    const { indexes, next } = itemsToTake(context);
    const slots = freeSlots(context.live, indexes.length);
    const live = indexes.length > 0 ? [...context.live] : context.live;
    indexes.forEach((index, position) => {
      const attempt = firstAttemptOf(context, index);
      const slot = slots[position]!;
      const { entry, input } = itemTry(context, index, attempt, slot);
      enqueue({ type: 'itemStarted', params: { index, attempt: entry.attempt } });
      enqueue.spawnChild('item', { id: entry.id, input });
      (live as (LiveItem | undefined)[])[slot] = entry;
    });
    if (next !== context.next || indexes.length > 0) {
      enqueue.assign({ next, live, liveCount: context.liveCount + indexes.length });
    }
  }),
);

/** The settled try is over: its entry leaves the live list (its slot is idle again). */
function release(context: ParallelIterationContext, id: string) {
  return withSlot(context.live, slotOf(id), undefined);
}

/** A copy of the live list with `slot` set to `entry` (undefined: idle). */
function withSlot(
  live: readonly (LiveItem | undefined)[],
  slot: number,
  entry: LiveItem | undefined,
): (LiveItem | undefined)[] {
  const copy = [...live];
  copy[slot] = entry;
  return copy;
}

/** The parallel iteration machine; provide `item` (one try of one item) and the `item*` effects. */
export const parallelIterationMachine = parallelBase
  .extend({
    actions: {
      takeItems,
      /** The smoke test: item 0 to the end before any other item starts. */
      startSmokeTest: action(
        enqueueActions(({ context, enqueue }) => {
          const { entry, input } = itemTry(context, 0, firstAttemptOf(context, 0), 0);
          enqueue({ type: 'itemStarted', params: { index: 0, attempt: entry.attempt } });
          enqueue.spawnChild('item', { id: entry.id, input });
          enqueue.assign({ live: [entry], liveCount: 1, next: 1 });
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
          enqueue.stopChild(settled.id);
          const maxAttempts = context.settings.maxAttempts;
          enqueue({ type: 'itemFailed', params: { index, attempt, error: failure, final: false } });
          enqueue({
            type: 'itemRetrying',
            params: { index, attempt: attempt + 1, maxAttempts, error: failure },
          });
          const slot = slotOf(settled.id);
          const { entry, input } = itemTry(context, index, attempt + 1, slot);
          enqueue({ type: 'itemStarted', params: { index, attempt: entry.attempt } });
          enqueue.spawnChild('item', { id: entry.id, input });
          enqueue.assign({ live: withSlot(context.live, slot, entry) });
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
            liveCount: context.liveCount - 1,
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
          enqueue.assign({
            live: release(context, settled.id),
            liveCount: context.liveCount - 1,
            succeeded: context.succeeded + 1,
          });
        }),
      ),
      /** Fail-fast: the tries of the other running items are stopped (their requests aborted), none is taken. */
      cancelLiveItems: action(
        enqueueActions(({ context, enqueue }) => {
          for (const entry of context.live) if (entry !== undefined) enqueue.stopChild(entry.id);
          enqueue.assign({ live: [], liveCount: 0, stopping: true });
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
          ...settledTry([
            { guard: 'notLiveItem' },
            { guard: and(['attemptFailed', 'triesLeft']), actions: 'retryItem' },
            { guard: 'attemptFailed', target: 'finished', actions: 'failItem' },
            { target: 'launching', actions: 'succeedItem' },
          ]),
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
    { guard: and(['attemptFailed', 'triesLeft']), actions: 'retryItem' },
    // Listed after the retry: a failed try that reaches it was the item's last.
    {
      guard: and(['attemptFailed', 'failFast']),
      target: 'finished',
      actions: ['failItem', 'cancelLiveItems'],
    },
  ] as const;
  return settledTry([
    ...onFailure,
    { guard: 'attemptFailed', actions: ['failItem', 'takeItems'] },
    { actions: ['succeedItem', 'takeItems'] },
  ] as const);
}

/** The same transitions for an `item` child that resolved and one that rejected. */
function settledTry<const Transitions>(transitions: Transitions) {
  return { 'xstate.done.actor.*': transitions, 'xstate.error.actor.*': transitions } as const;
}

/** The parallel iteration machine with `item` (one try of one item) and the `item*` effects. */
export function withItemActor(
  item: ItemLogic,
  actions: Parameters<typeof parallelIterationMachine.provide>[0]['actions'],
) {
  return parallelIterationMachine.provide({
    actors: { item },
    ...(actions ? { actions } : {}),
  });
}
