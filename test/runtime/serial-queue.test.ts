import { describe, expect, it } from 'vitest';
import { isAbortError } from '../../src/base/abort.ts';
import { SerialQueue } from '../../src/runtime/serial-queue.ts';

/** A promise with its resolve and reject exposed. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SerialQueue', () => {
  it('runs jobs of one key one at a time in arrival order', async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const gates = [deferred<void>(), deferred<void>(), deferred<void>()];
    const results = gates.map((gate, position) =>
      queue.run('analyze[3]', async () => {
        log.push(`start ${position}`);
        await gate.promise;
        log.push(`end ${position}`);
        return position;
      }),
    );
    await flush();
    expect(log).toEqual(['start 0']);
    expect(queue.isBusy('analyze[3]')).toBe(true);
    expect(queue.waiting('analyze[3]')).toBe(2);
    gates[1]?.resolve();
    gates[2]?.resolve();
    await flush();
    expect(log).toEqual(['start 0']);
    gates[0]?.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2]);
    expect(log).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
    expect(queue.isBusy('analyze[3]')).toBe(false);
  });

  it('runs different keys independently', async () => {
    const queue = new SerialQueue();
    const hold = deferred<void>();
    const log: string[] = [];
    const first = queue.run('a', async () => {
      await hold.promise;
      log.push('a');
    });
    await queue.run('b', async () => {
      log.push('b');
    });
    expect(log).toEqual(['b']);
    hold.resolve();
    await first;
    expect(log).toEqual(['b', 'a']);
  });

  it('goes on after a job fails, passing the failure to its caller', async () => {
    const queue = new SerialQueue();
    const failing = queue.run('k', () => Promise.reject(new Error('fork failed')));
    const throwing = queue.run('k', () => {
      throw new Error('sync throw');
    });
    const next = queue.run('k', () => Promise.resolve('answered'));
    await expect(failing).rejects.toThrow('fork failed');
    await expect(throwing).rejects.toThrow('sync throw');
    expect(await next).toBe('answered');
  });

  it('drops a waiting job whose signal aborts without blocking the ones after it', async () => {
    const queue = new SerialQueue();
    const hold = deferred<void>();
    const log: string[] = [];
    const first = queue.run('k', async () => {
      await hold.promise;
      log.push('first');
    });
    const controller = new AbortController();
    const aborted = queue.run('k', async () => void log.push('aborted'), controller.signal);
    const last = queue.run('k', async () => void log.push('last'));
    controller.abort();
    await expect(aborted).rejects.toSatisfy(isAbortError);
    expect(queue.waiting('k')).toBe(1);
    hold.resolve();
    await Promise.all([first, last]);
    expect(log).toEqual(['first', 'last']);
    await expect(queue.run('k', async () => 1, controller.signal)).rejects.toSatisfy(isAbortError);
  });
});
