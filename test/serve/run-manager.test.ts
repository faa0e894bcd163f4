import { describe, expect, it } from 'vitest';
import { RunManager, type RunRequest } from '../../src/serve/run-manager.ts';

/** A manager whose runs end when the test says, recording the order they started in. */
function manager(limit: number, queueLimit: number) {
  const started: string[] = [];
  const finish = new Map<string, () => void>();
  const runs = new RunManager<RunRequest>({
    limitOf: (mission) => (mission === 'wide' ? 10 : limit),
    queueLimit,
    launch: (request) => {
      started.push(request.runId);
      return new Promise<void>((resolve) => finish.set(request.runId, resolve));
    },
  });
  const submit = (runId: string, mission = 'm', beyondQueue = false) =>
    runs.submit({ runId, mission, source: 'api' }, beyondQueue);
  /** Ends a run and lets the manager start the next one. */
  const end = async (runId: string) => {
    finish.get(runId)?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { runs, started, submit, end };
}

describe('RunManager', () => {
  it('runs max_parallel runs of a mission at once and queues the rest in order', async () => {
    const { started, submit, end } = manager(2, 5);
    expect(['a', 'b', 'c', 'd'].map((id) => submit(id))).toEqual([
      'started',
      'started',
      'queued',
      'queued',
    ]);
    expect(started).toEqual(['a', 'b']);
    await end('b');
    expect(started).toEqual(['a', 'b', 'c']);
    await end('a');
    expect(started).toEqual(['a', 'b', 'c', 'd']);
  });

  it('refuses a run once the queue is full; another mission has its own limit', () => {
    const { submit } = manager(1, 1);
    expect([submit('a'), submit('b'), submit('c'), submit('x', 'wide')]).toEqual([
      'started',
      'queued',
      'full',
      'started',
    ]);
    expect(submit('r', 'm', true)).toBe('queued');
  });

  it('takes a cancelled run out of its queue, and drops the queue when stopped', async () => {
    const { runs, started, submit, end } = manager(1, 5);
    submit('a');
    submit('b');
    submit('c');
    expect(runs.dequeue('b')).toBe(true);
    expect(runs.queued('c')?.runId).toBe('c');
    expect(runs.stop().map((request) => request.runId)).toEqual(['c']);
    expect(submit('d')).toBe('stopped');
    await end('a');
    expect(started).toEqual(['a']);
    await runs.idle();
    expect(runs.runningCount()).toBe(0);
  });
});
