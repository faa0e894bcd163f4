import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { TaskOutcome } from '../../src/machines/task-outcome.ts';
import { taskMachine, type TaskMachineOutput } from '../../src/machines/task.machine.ts';

const succeeded: TaskOutcome = {
  status: 'succeeded',
  summary: 'done',
  route: 'next',
  missionInputs: null,
};

function runTask(work: (signal: AbortSignal) => Promise<TaskOutcome>, cancel = false) {
  const machine = taskMachine.provide({
    actors: { work: fromPromise<TaskOutcome, { task: string }>(({ signal }) => work(signal)) },
  });
  const actor = createActor(machine, { input: { task: 't' } });
  actor.start();
  if (cancel) actor.send({ type: 'task.cancel', reason: 'task "x" failed' });
  return toPromise(actor) as Promise<TaskMachineOutput>;
}

describe('taskMachine', () => {
  it('succeeds with the outcome of its work', async () => {
    expect(await runTask(async () => succeeded)).toEqual({
      task: 't',
      status: 'succeeded',
      outcome: succeeded,
      error: null,
    });
  });

  it('fails with the outcome error when the work reports failure', async () => {
    const failed: TaskOutcome = {
      status: 'failed',
      summary: '',
      route: null,
      missionInputs: null,
      error: 'no data',
    };
    expect(await runTask(async () => failed)).toEqual({
      task: 't',
      status: 'failed',
      outcome: failed,
      error: 'no data',
    });
  });

  it('a defect in the work fails the task through onError', async () => {
    expect(
      await runTask(async () => {
        throw new RangeError('bad index');
      }),
    ).toEqual({ task: 't', status: 'failed', outcome: null, error: 'bad index' });
  });

  it('cancel stops the work and aborts its signal', async () => {
    let aborted = false;
    const output = await runTask(
      (signal) =>
        new Promise(() => {
          signal.addEventListener('abort', () => (aborted = true));
        }),
      true,
    );
    expect(output).toEqual({
      task: 't',
      status: 'cancelled',
      outcome: null,
      error: 'task "x" failed',
    });
    expect(aborted).toBe(true);
  });
});
