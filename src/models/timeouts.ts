/**
 * The three deadlines of a model request (models.md): time to first byte, stream silence
 * and total time. Adapters wrap their stream iteration with one `StreamDeadlines`.
 */
import { ProviderTimeoutError, type TimeoutKind } from './provider-errors.ts';

export interface ModelTimeouts {
  /** Until the response's first byte (headers or first event). Default 60 s. */
  firstByteMs: number;
  /** Longest silence between stream events. Default 120 s. */
  idleMs: number;
  /** The whole request. Default 15 min. */
  totalMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<ModelTimeouts> = Object.freeze({
  firstByteMs: 60_000,
  idleMs: 120_000,
  totalMs: 15 * 60_000,
});

/** The defaults with any overrides applied. */
export function resolveTimeouts(overrides?: Partial<ModelTimeouts>): ModelTimeouts {
  return { ...DEFAULT_TIMEOUTS, ...overrides };
}

/** Deadlines for one request; `dispose()` must be called when the request settles. */
export interface StreamDeadlines {
  /** Aborts when the caller aborts or any deadline expires; pass it to the SDK. */
  readonly signal: AbortSignal;
  /** Call on the first byte and on every stream event. */
  touch(): void;
  /** The deadline that expired, if any. */
  expired(): ProviderTimeoutError | undefined;
  /** An error thrown while streaming, replaced by the timeout error when a deadline caused it. */
  translate(error: unknown): unknown;
  dispose(): void;
}

export interface StreamDeadlineOptions {
  provider: string;
  signal?: AbortSignal;
  timeouts?: Partial<ModelTimeouts>;
}

/**
 * Starts the first-byte and total timers; the first `touch()` switches to the idle timer.
 * `touch()` only stamps the time (it runs once per stream event, so it must be cheap); the
 * idle timer re-arms itself for the remaining silence when it finds a newer stamp.
 */
export function createStreamDeadlines(options: StreamDeadlineOptions): StreamDeadlines {
  const timeouts = resolveTimeouts(options.timeouts);
  const controller = new AbortController();
  let failure: ProviderTimeoutError | undefined;
  let lastActivity: number | undefined;

  const expire = (kind: TimeoutKind, limitMs: number): void => {
    if (failure !== undefined || controller.signal.aborted) return;
    failure = new ProviderTimeoutError(options.provider, kind, limitMs);
    controller.abort(failure);
  };
  const checkIdle = (): void => {
    const silentFor = Date.now() - lastActivity!;
    if (silentFor >= timeouts.idleMs) expire('idle', timeouts.idleMs);
    else streamTimer = setTimeout(checkIdle, timeouts.idleMs - silentFor);
  };
  const totalTimer = setTimeout(() => expire('total', timeouts.totalMs), timeouts.totalMs);
  let streamTimer = setTimeout(
    () => expire('first_byte', timeouts.firstByteMs),
    timeouts.firstByteMs,
  );

  const onCallerAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  return {
    signal: controller.signal,
    touch() {
      if (failure !== undefined) return;
      const first = lastActivity === undefined;
      lastActivity = Date.now();
      if (!first) return;
      clearTimeout(streamTimer);
      streamTimer = setTimeout(checkIdle, timeouts.idleMs);
    },
    expired: () => failure,
    translate: (error) => failure ?? error,
    dispose() {
      clearTimeout(totalTimer);
      clearTimeout(streamTimer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
