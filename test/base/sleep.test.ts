import { describe, expect, it } from 'vitest';
import { isAbortError } from '../../src/base/abort.ts';
import { sleep } from '../../src/base/sleep.ts';

describe('sleep', () => {
  it('resolves when the time is up', async () => {
    await expect(sleep(0, new AbortController().signal)).resolves.toBeUndefined();
    await expect(sleep(0)).resolves.toBeUndefined();
  });

  it('rejects at once with the reason of a signal that has already aborted', async () => {
    await expect(sleep(60_000, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
  });

  it('rejects with the reason as soon as the signal aborts during the wait', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort(new Error('cancelled by the user'));
    await expect(waiting).rejects.toThrow('cancelled by the user');
  });

  it('rejects with an AbortError when the signal aborts without a reason', async () => {
    const controller = new AbortController();
    const waiting = sleep(60_000, controller.signal);
    controller.abort();
    const error: unknown = await waiting.catch((caught: unknown) => caught);
    expect(isAbortError(error)).toBe(true);
  });
});
