/** The one abortable wait: retries back off with it, iterations stagger starts, the sleep tool waits. */
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves after `milliseconds`, or rejects with the signal's reason (an `AbortError` unless
 * the aborter gave another) as soon as `signal` aborts, at once when it already has.
 */
export async function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  try {
    await delay(milliseconds, undefined, signal === undefined ? undefined : { signal });
  } catch (error) {
    // Node rejects with its own AbortError; callers see the reason the signal was aborted with.
    throw signal?.aborted === true ? (signal.reason ?? error) : error;
  }
}
