import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import {
  missionMachine,
  type MissionMachineInput,
  type MissionMachineOutput,
} from '../../src/machines/mission.machine.ts';
import type { MissionTaskSpec } from '../../src/machines/mission-scheduling.ts';
import type { TaskOutcome } from '../../src/machines/task-outcome.ts';
import { taskMachine } from '../../src/machines/task.machine.ts';

function spec(name: string, extra: Partial<MissionTaskSpec> = {}): MissionTaskSpec {
  return { name, dependsOn: [], routes: [], sendTo: [], iterated: false, ...extra };
}

const outcome = (status: TaskOutcome['status'], error?: string): TaskOutcome => ({
  status,
  summary: '',
  route: null,
  missionInputs: null,
  ...(error === undefined ? {} : { error }),
});

async function flush(): Promise<void> {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
}

/** A mission whose tasks the test finishes one by one; the log records effects in order. */
function mission(input: MissionMachineInput) {
  const pending = new Map<string, (outcome: TaskOutcome | Error) => void>();
  const aborted: string[] = [];
  const log: string[] = [];
  const work = fromPromise<TaskOutcome, { task: string }>(
    ({ input: { task }, signal }) =>
      new Promise((resolve, reject) => {
        signal.addEventListener('abort', () => {
          aborted.push(task);
          reject(new Error('aborted'));
        });
        pending.set(task, (result) => (result instanceof Error ? reject(result) : resolve(result)));
      }),
  );
  const machine = missionMachine.provide({
    actors: { task: taskMachine.provide({ actors: { work } }) },
    actions: {
      emitTaskStarted: (_, params) => log.push(`started ${params.task}`),
      emitTaskSettled: (_, params) => log.push(`${params.status} ${params.task}`),
      emitTaskSkipped: (_, params) => log.push(`skipped ${params.task} (${params.reason})`),
    },
  });
  const actor = createActor(machine, { input });
  const states: string[] = [];
  actor.subscribe((snapshot) => {
    const value = String(snapshot.value);
    if (states.at(-1) !== value) states.push(value);
  });
  actor.start();
  return {
    states,
    actor,
    log,
    aborted,
    state: () => actor.getSnapshot().value,
    finish: async (task: string, result: TaskOutcome | Error) => {
      pending.get(task)?.(result);
      await flush();
    },
    done: toPromise(actor) as Promise<MissionMachineOutput>,
  };
}

describe('mission machine states', () => {
  it('drains after a failure: no task starts, a finishing task settles, then the mission fails', async () => {
    const run = mission({
      mission: 'm',
      tasks: [spec('a'), spec('b'), spec('fan', { dependsOn: ['b'], sendTo: ['x'] }), spec('x')],
    });
    expect(run.state()).toBe('running');
    await run.finish('a', outcome('failed', 'boom'));
    expect(run.aborted).toEqual(['b']);
    expect((await run.done).status).toBe('failed');
    expect(run.states).toEqual(['running', 'draining', 'failed']);
    expect(run.log).toEqual([
      'started a',
      'started b',
      'failed a',
      'skipped fan (mission_stopped)',
      'skipped x (mission_stopped)',
      'cancelled b',
    ]);
  });

  it('with keep-going a failure goes back to scheduling and the mission fails at the end', async () => {
    const run = mission({
      mission: 'm',
      keepGoing: true,
      tasks: [spec('a'), spec('b'), spec('after_b', { dependsOn: ['b'] })],
    });
    await run.finish('a', outcome('failed', 'boom'));
    expect(run.states).toEqual(['running']);
    await run.finish('b', outcome('succeeded'));
    expect(run.log.at(-1)).toBe('started after_b');
    await run.finish('after_b', outcome('succeeded'));
    expect(await run.done).toMatchObject({ status: 'failed', failedTask: 'a', error: 'boom' });
  });

  it('a cancel while running cancels the running tasks and skips the pending ones', async () => {
    const run = mission({ mission: 'm', tasks: [spec('a'), spec('b', { dependsOn: ['a'] })] });
    run.actor.send({ type: 'mission.cancel', reason: 'cancelled by the user' });
    expect(await run.done).toMatchObject({ status: 'cancelled', failedTask: null });
    expect(run.states).toEqual(['running', 'cancelling', 'cancelled']);
    expect(run.log).toEqual(['started a', 'skipped b (mission_stopped)', 'cancelled a']);
  });

  it('a defect in a running task drains the mission like a failure', async () => {
    const run = mission({ mission: 'm', tasks: [spec('a'), spec('b')] });
    await run.finish('a', new TypeError('defect'));
    expect(await run.done).toMatchObject({ status: 'failed', failedTask: 'a', error: 'defect' });
    expect(run.aborted).toEqual(['b']);
  });

  it('ends succeeded at once when nothing can run', async () => {
    const run = mission({ mission: 'm', tasks: [] });
    expect(run.state()).toBe('succeeded');
    expect((await run.done).status).toBe('succeeded');
  });
});
