/** The error a wait rejects with when its signal aborts (the DOM `AbortError` convention). */
export function abortError(message = 'the operation was aborted'): Error {
  return new DOMException(message, 'AbortError');
}

/** Whether an error is an abort, however it was raised. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && error.name === 'AbortError';
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
