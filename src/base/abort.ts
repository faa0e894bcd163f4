/** The error a wait rejects with when its signal aborts (the DOM `AbortError` convention). */
export function abortError(message = 'the operation was aborted'): Error {
  return new DOMException(message, 'AbortError');
}

/** Whether an error is an abort, however it was raised. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
}

/**
 * Aborts `controller` when `signal` aborts (at once when it already has), with
 * `reason(signal)`: by default the signal's own reason. Returns what lets go of `signal`, for a
 * caller whose signal outlives the work.
 */
export function followSignal(
  signal: AbortSignal | undefined,
  controller: AbortController,
  reason: (signal: AbortSignal) => unknown = (followed) => followed.reason,
): () => void {
  if (signal === undefined) return () => undefined;
  const forward = (): void => controller.abort(reason(signal));
  if (signal.aborted) {
    forward();
    return () => undefined;
  }
  signal.addEventListener('abort', forward, { once: true });
  return () => signal.removeEventListener('abort', forward);
}

/**
 * Runs `work` with a signal of its own that aborts with `signal`, and lets go of `signal` when
 * it ends: for a library that adds an abort listener per request and never removes it (the MCP
 * SDK), which on a long-lived signal would keep one listener per request.
 */
export async function withOwnSignal<T>(
  signal: AbortSignal | undefined,
  work: (own: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const release = followSignal(signal, controller);
  try {
    return await work(controller.signal);
  } finally {
    release();
  }
}

/**
 * `work`, or a rejection with `abortError(message)` as soon as `signal` aborts: for work that
 * may never look at its signal (a tool stuck in a system call), so the caller is not held.
 */
export function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  message: string,
): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError(message));
  let stop: () => void = () => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    stop = () => reject(abortError(message));
    signal.addEventListener('abort', stop, { once: true });
  });
  return Promise.race([work, aborted]).finally(() => signal.removeEventListener('abort', stop));
}

/** Timer functions, injectable so tests need no real time. */
export interface Timers {
  setTimeout(callback: () => void, milliseconds: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The system timers. */
export const systemTimers: Timers = {
  setTimeout: (callback, milliseconds) => setTimeout(callback, milliseconds),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
