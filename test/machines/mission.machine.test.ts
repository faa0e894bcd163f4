import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import { missionMachine } from '../../src/machines/mission.machine.ts';
import type {
  MissionMachineInput,
  MissionMachineOutput,
} from '../../src/machines/mission.machine.ts';
import type { MissionTaskSpec } from '../../src/machines/mission-scheduling.ts';
import type { TaskOutcome } from '../../src/machines/task-outcome.ts';
import { taskMachine } from '../../src/machines/task.machine.ts';

type Script = Record<string, Partial<TaskOutcome> | 'hang'>;

function spec(name: string, extra: Partial<MissionTaskSpec> = {}): MissionTaskSpec {
  return { name, dependsOn: [], routes: [], sendTo: [], iterated: false, ...extra };
}

interface Journal {
  log: string[];
  aborted: string[];
}

/** Runs the mission with scripted task outcomes; the log records effects in order. */
async function runMission(
  input: MissionMachineInput,
  script: Script,
  options: { cancelAfterStart?: string } = {},
): Promise<{ output: MissionMachineOutput } & Journal> {
  const journal: Journal = { log: [], aborted: [] };
  const work = fromPromise<TaskOutcome, { task: string }>(({ input: { task }, signal }) => {
    const entry = script[task] ?? {};
    if (entry === 'hang') {
      return new Promise((_, reject) => {
        signal.addEventListener('abort', () => {
          journal.aborted.push(task);
          reject(new Error('aborted'));
        });
      });
    }
    return Promise.resolve({
      status: 'succeeded',
      summary: `${task} done`,
      route: null,
      missionInputs: null,
      ...entry,
    } as TaskOutcome);
  });
  const machine = missionMachine.provide({
    actors: { task: taskMachine.provide({ actors: { work } }) },
    actions: {
      emitTaskStarted: (_, params) => journal.log.push(`started ${params.task}`),
      emitTaskSettled: (_, params) =>
        journal.log.push(
          `${params.status} ${params.task}${params.status === 'cancelled' ? ` (${String(params.error)})` : ''}`,
        ),
      emitTaskSkipped: (_, params) =>
        journal.log.push(
          `skipped ${params.task} (${params.reason}${params.cause ? ` ${params.cause}` : ''})`,
        ),
      emitRouteChosen: (_, params) =>
        journal.log.push(
          `route ${params.task} ${params.via} ${String(params.route)} -> ${params.targets
            .map((target) => `${target.name}:${target.activated ? 'yes' : target.reason}`)
            .join(',')}`,
        ),
    },
  });
  const actor = createActor(machine, { input });
  actor.start();
  if (options.cancelAfterStart !== undefined) {
    actor.send({ type: 'mission.cancel', reason: options.cancelAfterStart });
  }
  const output = (await toPromise(actor)) as MissionMachineOutput;
  return { output, ...journal };
}

describe('missionMachine', () => {
  it('runs independent tasks together and a dependent one after both succeeded', async () => {
    const { output, log } = await runMission(
      { mission: 'm', tasks: [spec('a'), spec('b'), spec('c', { dependsOn: ['a', 'b'] })] },
      {},
    );
    expect(output.status).toBe('succeeded');
    expect(log).toEqual([
      'started a',
      'started b',
      'succeeded a',
      'succeeded b',
      'started c',
      'succeeded c',
    ]);
  });

  it('fails fast: cancels running tasks and skips the rest', async () => {
    const { output, log, aborted } = await runMission(
      {
        mission: 'm',
        tasks: [
          spec('a'),
          spec('slow'),
          spec('after', { dependsOn: ['a'] }),
          spec('other', { dependsOn: ['slow'] }),
        ],
      },
      { a: { status: 'failed', error: 'boom' }, slow: 'hang' },
    );
    expect(output).toMatchObject({ status: 'failed', failedTask: 'a', error: 'boom' });
    expect(aborted).toEqual(['slow']);
    expect(log).toEqual([
      'started a',
      'started slow',
      'failed a',
      'skipped after (upstream_failed a)',
      'skipped other (mission_stopped a)',
      'cancelled slow (task "a" failed)',
    ]);
    expect(output.statuses).toEqual({
      a: 'failed',
      slow: 'cancelled',
      after: 'skipped',
      other: 'skipped',
    });
  });

  it('keeps going: independent tasks still run, the mission fails at the end', async () => {
    const { output, log } = await runMission(
      {
        mission: 'm',
        keepGoing: true,
        tasks: [
          spec('a'),
          spec('b'),
          spec('after', { dependsOn: ['a'] }),
          spec('c', { dependsOn: ['b'] }),
        ],
      },
      { a: { status: 'failed', error: 'boom' } },
    );
    expect(output.status).toBe('failed');
    expect(output.statuses).toEqual({
      a: 'failed',
      b: 'succeeded',
      after: 'skipped',
      c: 'succeeded',
    });
    expect(log).toContain('skipped after (upstream_failed a)');
  });

  it('activates the chosen route and skips the other target', async () => {
    const router = spec('pick', {
      routes: [
        { key: 'left', kind: 'task', target: 'left' },
        { key: 'right', kind: 'task', target: 'right' },
      ],
    });
    const { output, log } = await runMission(
      { mission: 'm', tasks: [router, spec('left'), spec('right')] },
      { pick: { route: 'right' } },
    );
    expect(output.status).toBe('succeeded');
    expect(log).toEqual([
      'started pick',
      'succeeded pick',
      'route pick router right -> right:yes',
      'skipped left (not_activated)',
      'started right',
      'succeeded right',
    ]);
  });

  it('route none activates nothing', async () => {
    const router = spec('pick', { routes: [{ key: 'left', kind: 'task', target: 'left' }] });
    const { output, log } = await runMission(
      { mission: 'm', tasks: [router, spec('left')] },
      { pick: { route: null } },
    );
    expect(output.statuses).toEqual({ pick: 'succeeded', left: 'skipped' });
    expect(log).toContain('route pick router null -> ');
  });

  it('send_to activates every target; a second activation loses (first one wins)', async () => {
    const { output, log } = await runMission(
      {
        mission: 'm',
        tasks: [
          spec('fan', { sendTo: ['x', 'y'] }),
          spec('late', { dependsOn: ['x'], sendTo: ['y'] }),
          spec('x'),
          spec('y'),
        ],
      },
      {},
    );
    expect(output.status).toBe('succeeded');
    expect(log).toContain('route fan send_to null -> x:yes,y:yes');
    expect(log).toContain('route late send_to null -> y:already_finished');
  });

  it('records the chosen mission route as the chain, or refuses it without chaining', async () => {
    const router = spec('pick', { routes: [{ key: 'next', kind: 'mission', target: 'next' }] });
    const chained = await runMission(
      { mission: 'm', tasks: [router] },
      { pick: { route: 'next', missionInputs: { topic: 'ai' } } },
    );
    expect(chained.output.chainTo).toEqual({
      mission: 'next',
      inputs: { topic: 'ai' },
      from: 'pick',
    });
    const unchained = await runMission(
      { mission: 'm', chain: false, tasks: [router] },
      { pick: { route: 'next', missionInputs: {} } },
    );
    expect(unchained.output.chainTo).toBeNull();
    expect(unchained.log).toContain('route pick router next -> next:chaining_disabled');
  });

  it('cancel aborts running tasks and skips pending ones', async () => {
    const { output, log, aborted } = await runMission(
      { mission: 'm', tasks: [spec('a'), spec('b', { dependsOn: ['a'] })] },
      { a: 'hang' },
      { cancelAfterStart: 'interrupted' },
    );
    expect(output.status).toBe('cancelled');
    expect(aborted).toEqual(['a']);
    expect(log).toEqual(['started a', 'skipped b (mission_stopped)', 'cancelled a (interrupted)']);
  });

  it('a defect in the work fails the task, not the process', async () => {
    const work = fromPromise<TaskOutcome, { task: string }>(async () => {
      throw new TypeError('defect');
    });
    const machine = missionMachine.provide({
      actors: { task: taskMachine.provide({ actors: { work } }) },
    });
    const actor = createActor(machine, { input: { mission: 'm', tasks: [spec('a')] } });
    actor.start();
    const output = (await toPromise(actor)) as MissionMachineOutput;
    expect(output).toMatchObject({ status: 'failed', failedTask: 'a', error: 'defect' });
  });
});
