import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, SimulatedClock, toPromise } from 'xstate';
import { withItemActor } from '../../src/machines/iteration.machine.ts';
import { slotOf } from '../../src/machines/iteration-context.ts';
import type {
  ItemAttemptInput,
  ItemAttemptOutput,
  ParallelIterationInput,
  ParallelIterationOutput,
} from '../../src/machines/iteration-context.ts';

/** One try the machine started, settled by the test. */
interface Try {
  input: ItemAttemptInput;
  signal: AbortSignal;
  succeed: (output?: unknown) => void;
  fail: (error: string) => void;
  crash: (error: Error) => void;
}

const settings: ParallelIterationInput = {
  total: 4,
  concurrencyLimit: 2,
  startDelay: 0,
  smoketest: false,
  maxAttempts: 1,
  keepGoing: false,
};

/** Lets the machine take in settled tries (promise callbacks, then the actor's mailbox). */
async function flush(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await Promise.resolve();
}

/** A parallel iteration whose item tries the test settles; the log records effects in order. */
function iteration(input: Partial<ParallelIterationInput> = {}, clock?: SimulatedClock) {
  const tries: Try[] = [];
  const log: string[] = [];
  const item = fromPromise<ItemAttemptOutput, ItemAttemptInput>(
    ({ input: attempt, signal }) =>
      new Promise((resolve, reject) => {
        tries.push({
          input: attempt,
          signal,
          succeed: (output = `out ${attempt.index}`) =>
            resolve({ status: 'succeeded', output, durationMs: 5 }),
          fail: (error) => resolve({ status: 'failed', error }),
          crash: reject,
        });
      }),
  );
  const machine = withItemActor(item, {
    itemStarted: (_, { index, attempt }) => log.push(`started ${index}#${attempt}`),
    itemSucceeded: (_, { index, output }) => log.push(`succeeded ${index} ${String(output)}`),
    itemFailed: (_, { index, attempt, error, final }) =>
      log.push(`failed ${index}#${attempt} ${error}${final ? ' (final)' : ''}`),
    itemRetrying: (_, { index, attempt, maxAttempts }) =>
      log.push(`retrying ${index} ${attempt}/${maxAttempts}`),
  });
  const actor = createActor(machine, {
    input: { ...settings, ...input },
    ...(clock === undefined ? {} : { clock }),
  });
  const children = new Set<string>();
  const doneTypes = new Set<string>();
  let peak = 0;
  actor.system.inspect((inspection) => {
    if (inspection.type !== '@xstate.event' || inspection.actorRef !== actor) return;
    const { type } = inspection.event;
    if (type.startsWith('xstate.done.actor.')) doneTypes.add(type);
  });
  actor.subscribe((snapshot) => {
    const ids = Object.keys(snapshot.children);
    for (const id of ids) children.add(id);
    peak = Math.max(peak, ids.length);
  });
  actor.start();
  const done = toPromise(actor) as Promise<ParallelIterationOutput>;
  return {
    actor,
    tries,
    log,
    done,
    /** Slots running a try now (a slot with nothing left to run is idle). */
    alive: () =>
      Object.keys(actor.getSnapshot().children)
        .map((id) => slotOf(id))
        .sort((a, b) => a - b)
        .map(String),
    /** The most tries that ran at once (children of the machine). */
    mostAlive: () => peak,
    /** Every child id the machine had. */
    children: () => [...children],
    /** The distinct types of the done events the machine received from its tries. */
    doneTypes: () => [...doneTypes],
    /** The live try of item `index`. */
    live: (index: number) => {
      const found = tries.findLast((entry) => entry.input.index === index);
      if (found === undefined) throw new Error(`item ${index} never started`);
      return found;
    },
  };
}

describe('parallelIterationMachine', () => {
  it('takes items from a counter, never running more than concurrency_limit at once', async () => {
    const run = iteration({ total: 5, concurrencyLimit: 2 });
    expect(run.tries.map((entry) => entry.input.index)).toEqual([0, 1]);
    run.live(1).succeed();
    await flush();
    expect(run.tries.map((entry) => entry.input.index)).toEqual([0, 1, 2]);
    run.live(0).succeed();
    run.live(2).succeed();
    await flush();
    run.live(3).succeed();
    run.live(4).succeed();
    expect(await run.done).toEqual({ succeeded: 5, failed: 0, firstFailure: null, error: null });
    expect(run.mostAlive()).toBe(2);
    expect(run.log).toEqual([
      'started 0#1',
      'started 1#1',
      'succeeded 1 out 1',
      'started 2#1',
      'succeeded 0 out 0',
      'started 3#1',
      'succeeded 2 out 2',
      'started 4#1',
      'succeeded 3 out 3',
      'succeeded 4 out 4',
    ]);
  });

  it('runs each try in a slot, which takes the next item once its try settles', async () => {
    const run = iteration({ total: 3, concurrencyLimit: 2 });
    expect(run.alive()).toEqual(['0', '1']);
    run.live(1).succeed();
    await flush();
    // Item 2 runs in the slot item 1 left, in a fresh item actor: slots are named by number.
    expect(run.alive()).toEqual(['0', '1']);
    expect(run.live(2).input).toEqual({ index: 2, attempt: 1, mayContinue: true });
    run.live(0).succeed();
    await flush();
    // Slot 0 has no item left to take: idle.
    expect(run.alive()).toEqual(['1']);
    run.live(2).succeed();
    await run.done;
    expect(run.alive()).toEqual([]);
  });

  it('runs each try as a child of the machine, stopped once it settled', async () => {
    const run = iteration({ total: 120, concurrencyLimit: 40 });
    expect(run.alive()).toHaveLength(40);
    for (let index = 0; index < 120; index++) {
      run.live(index).succeed();
      await flush();
    }
    expect(await run.done).toEqual({ succeeded: 120, failed: 0, firstFailure: null, error: null });
    expect(run.mostAlive()).toBe(40);
    expect(run.tries).toHaveLength(120);
    // A fresh child per try, named by its slot: item 40 runs in the slot item 0 left.
    expect(run.children()).toHaveLength(40);
    expect(run.children().slice(0, 2)).toEqual(['item.0', 'item.1']);
    expect(new Set(run.tries.map((entry) => entry.signal)).size).toBe(120);
  });

  it('receives one done-event type per slot, not per item: xstate keeps a lookup per event type for good', async () => {
    const run = iteration({ total: 120, concurrencyLimit: 40 });
    for (let index = 0; index < 120; index++) {
      run.live(index).succeed();
      await flush();
    }
    expect((await run.done).succeeded).toBe(120);
    expect(run.doneTypes()).toHaveLength(40);
    expect(run.doneTypes().slice(0, 2)).toEqual([
      'xstate.done.actor.item.0',
      'xstate.done.actor.item.1',
    ]);
  });

  it('starts the first batch start_delay apart on the simulated clock', async () => {
    const clock = new SimulatedClock();
    const run = iteration({ total: 5, concurrencyLimit: 3, startDelay: 100 }, clock);
    expect(run.tries).toHaveLength(1);
    clock.increment(99);
    expect(run.tries).toHaveLength(1);
    clock.increment(1);
    expect(run.tries).toHaveLength(2);
    // A slot freed during the first batch takes the next item at once, not after the delay.
    run.live(0).succeed();
    await flush();
    expect(run.tries.map((entry) => entry.input.index)).toEqual([0, 1, 2]);
    clock.increment(100);
    expect(run.tries.map((entry) => entry.input.index)).toEqual([0, 1, 2, 3]);
    expect(run.actor.getSnapshot().value).toBe('running');
    for (const index of [1, 2, 3]) run.live(index).succeed();
    await flush();
    run.live(4).succeed();
    expect((await run.done).succeeded).toBe(5);
    expect(run.mostAlive()).toBe(3);
  });

  it('runs the smoke test alone first; its final failure skips every other item', async () => {
    const run = iteration({ total: 4, smoketest: true, maxAttempts: 2, keepGoing: true });
    expect(run.actor.getSnapshot().value).toBe('smokeTesting');
    run.live(0).fail('bad prompt');
    await flush();
    run.live(0).fail('still bad');
    expect(await run.done).toEqual({
      succeeded: 0,
      failed: 1,
      firstFailure: { index: 0, error: 'still bad' },
      error: 'smoketest item 0 failed: still bad',
    });
    expect(run.tries.map((entry) => entry.input.index)).toEqual([0, 0]);
  });

  it('starts the other items once the smoke test succeeded', async () => {
    const run = iteration({ total: 3, smoketest: true, concurrencyLimit: 4 });
    expect(run.tries).toHaveLength(1);
    run.live(0).succeed();
    await flush();
    expect(run.tries.map((entry) => entry.input.index)).toEqual([0, 1, 2]);
    run.live(1).succeed();
    run.live(2).succeed();
    expect((await run.done).succeeded).toBe(3);
  });

  it('retries a failed item with a fresh item actor until its tries run out', async () => {
    const run = iteration({ total: 1, maxAttempts: 3 });
    run.live(0).fail('timeout');
    await flush();
    run.live(0).crash(new Error('connection reset'));
    await flush();
    run.live(0).succeed('finally');
    expect((await run.done).succeeded).toBe(1);
    expect(run.tries.map((entry) => [entry.input.attempt, entry.input.mayContinue])).toEqual([
      [1, true],
      [2, false],
      [3, false],
    ]);
    expect(new Set(run.tries.map((entry) => entry.signal)).size).toBe(3);
    expect(run.log).toEqual([
      'started 0#1',
      'failed 0#1 timeout',
      'retrying 0 2/3',
      'started 0#2',
      'failed 0#2 connection reset',
      'retrying 0 3/3',
      'started 0#3',
      'succeeded 0 finally',
    ]);
  });

  it('fails fast: the first final failure cancels the running items and takes no more', async () => {
    const run = iteration({ total: 6, concurrencyLimit: 3 });
    run.live(1).fail('bad item');
    expect(await run.done).toEqual({
      succeeded: 0,
      failed: 1,
      firstFailure: { index: 1, error: 'bad item' },
      error: 'item 1 failed: bad item',
    });
    expect(run.tries.map((entry) => [entry.input.index, entry.signal.aborted])).toEqual([
      [0, true],
      [1, false],
      [2, true],
    ]);
    expect(run.alive()).toEqual([]);
  });

  it('keeps going: every item runs and the error counts the failures', async () => {
    const run = iteration({ total: 4, concurrencyLimit: 2, keepGoing: true });
    run.live(0).succeed();
    run.live(1).fail('no data');
    await flush();
    run.live(2).fail('no access');
    run.live(3).succeed();
    expect(await run.done).toEqual({
      succeeded: 2,
      failed: 2,
      firstFailure: { index: 1, error: 'no data' },
      error: '2 of 4 items failed; first: item 1: no data',
    });
  });

  it('resumed: skips items that had succeeded and goes on with the try an item was on', async () => {
    const run = iteration({
      total: 4,
      concurrencyLimit: 4,
      smoketest: true,
      maxAttempts: 3,
      succeeded: [0, 2],
      attempts: new Map([[1, 2]]),
    });
    expect(run.tries.map((entry) => [entry.input.index, entry.input.attempt])).toEqual([
      [1, 2],
      [3, 1],
    ]);
    run.live(1).succeed();
    run.live(3).succeed();
    expect((await run.done).succeeded).toBe(4);
  });

  it('ends at once when a resumed run had every item succeed', async () => {
    const run = iteration({ total: 2, succeeded: [0, 1] });
    expect(await run.done).toEqual({ succeeded: 2, failed: 0, firstFailure: null, error: null });
    expect(run.tries).toEqual([]);
  });
});
