import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import {
  sequentialIterationMachine,
  type SequentialAttemptInput,
  type SequentialAttemptOutput,
  type SequentialIterationOutput,
} from '../../src/machines/sequential-iteration.machine.ts';

/** Runs the machine with one scripted outcome per try; records inputs and effects. */
async function run(
  tries: Array<SequentialAttemptOutput | Error>,
  input: { total: number; maxAttempts: number; acceptedOutputs?: Record<number, unknown> },
) {
  const inputs: SequentialAttemptInput[] = [];
  const log: string[] = [];
  const script = [...tries];
  const machine = sequentialIterationMachine.provide({
    actors: {
      commander: fromPromise<SequentialAttemptOutput, SequentialAttemptInput>(
        async ({ input: attempt }) => {
          inputs.push(attempt);
          const next = script.shift();
          if (next === undefined) throw new Error('script exhausted');
          if (next instanceof Error) throw next;
          return next;
        },
      ),
    },
    actions: {
      itemRetrying: (_, params) =>
        log.push(
          `retrying at item ${params.index}, try ${params.attempt}/${params.maxAttempts}: ${params.error}`,
        ),
    },
  });
  const actor = createActor(machine, { input });
  actor.start();
  const output = (await toPromise(actor)) as SequentialIterationOutput;
  return { output, inputs, log };
}

const completed = (itemOutputs: Record<number, unknown>): SequentialAttemptOutput => ({
  status: 'succeeded',
  itemOutputs,
  summary: 'all done',
  route: null,
  missionInputs: null,
});

describe('sequentialIterationMachine', () => {
  it('succeeds with the commander completion and every accepted output', async () => {
    const { output, inputs, log } = await run([completed({ 0: 'a', 1: 'b' })], {
      total: 2,
      maxAttempts: 1,
    });
    expect(output).toEqual({
      status: 'succeeded',
      completion: completed({ 0: 'a', 1: 'b' }),
      acceptedOutputs: { 0: 'a', 1: 'b' },
      error: null,
    });
    expect(inputs).toEqual([{ attempt: 1, acceptedOutputs: {} }]);
    expect(log).toEqual([]);
  });

  it('retries with a fresh commander from the first item without an accepted output', async () => {
    const { output, inputs, log } = await run(
      [
        { status: 'failed', itemOutputs: { 0: 'a', 2: 'c' }, error: 'timeout' },
        new Error('socket closed'),
        completed({ 1: 'b', 3: 'd' }),
      ],
      { total: 4, maxAttempts: 3 },
    );
    expect(inputs).toEqual([
      { attempt: 1, acceptedOutputs: {} },
      { attempt: 2, acceptedOutputs: { 0: 'a', 2: 'c' } },
      { attempt: 3, acceptedOutputs: { 0: 'a', 2: 'c' } },
    ]);
    expect(log).toEqual([
      'retrying at item 1, try 2/3: timeout',
      'retrying at item 1, try 3/3: socket closed',
    ]);
    expect(output.status).toBe('succeeded');
    expect(output.acceptedOutputs).toEqual({ 0: 'a', 1: 'b', 2: 'c', 3: 'd' });
  });

  it('fails with the last error once no try remains, keeping the accepted outputs', async () => {
    const { output } = await run(
      [
        { status: 'failed', itemOutputs: { 0: 'a' }, error: 'first' },
        { status: 'failed', itemOutputs: { 1: 'b' }, error: 'second' },
      ],
      { total: 3, maxAttempts: 2, acceptedOutputs: { 2: 'restored' } },
    );
    expect(output).toEqual({
      status: 'failed',
      completion: null,
      acceptedOutputs: { 0: 'a', 1: 'b', 2: 'restored' },
      error: 'second',
    });
  });
});
