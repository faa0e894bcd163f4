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

/** The defaults with any overrides applied (the frozen defaults themselves when there are none). */
export function resolveTimeouts(overrides?: Partial<ModelTimeouts>): Readonly<ModelTimeouts> {
  // Called once per request: no copy when nothing is overridden, as in every run.
  return overrides === undefined ? DEFAULT_TIMEOUTS : { ...DEFAULT_TIMEOUTS, ...overrides };
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
 * One timer for the three deadlines: it is armed for the earliest deadline that can apply and,
 * when it fires, expires the deadline that has passed or re-arms for the next one. `touch()`
 * only stamps the time (it runs once per stream event, so it must be cheap); the first one
 * re-arms the timer only when the idle deadline comes before the armed one. A request that
 * answers in time costs one timer, not three.
 */
export function createStreamDeadlines(options: StreamDeadlineOptions): StreamDeadlines {
  const timeouts = resolveTimeouts(options.timeouts);
  const controller = new AbortController();
  const started = Date.now();
  let failure: ProviderTimeoutError | undefined;
  let lastActivity: number | undefined;
  let armedFor = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const expire = (kind: TimeoutKind, limitMs: number): void => {
    if (failure !== undefined || controller.signal.aborted) return;
    failure = new ProviderTimeoutError(options.provider, kind, limitMs);
    controller.abort(failure);
  };
  /** The deadline that applies now: total, and first byte until the first touch, else idle. */
  const next = (): { at: number; kind: TimeoutKind; limitMs: number } => {
    const total = started + timeouts.totalMs;
    const stream =
      lastActivity === undefined
        ? {
            at: started + timeouts.firstByteMs,
            kind: 'first_byte' as const,
            limitMs: timeouts.firstByteMs,
          }
        : { at: lastActivity + timeouts.idleMs, kind: 'idle' as const, limitMs: timeouts.idleMs };
    return stream.at < total ? stream : { at: total, kind: 'total', limitMs: timeouts.totalMs };
  };
  const arm = (at: number): void => {
    clearTimeout(timer);
    armedFor = at;
    timer = setTimeout(check, Math.max(0, at - Date.now()));
  };
  function check(): void {
    timer = undefined;
    if (failure !== undefined || controller.signal.aborted) return;
    const deadline = next();
    if (Date.now() >= deadline.at) expire(deadline.kind, deadline.limitMs);
    else arm(deadline.at);
  }
  arm(next().at);

  const onCallerAbort = (): void => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  else options.signal?.addEventListener('abort', onCallerAbort, { once: true });

  return {
    signal: controller.signal,
    touch() {
      if (failure !== undefined) return;
      const first = lastActivity === undefined;
      lastActivity = Date.now();
      if (!first || timer === undefined) return;
      const deadline = next().at;
      if (deadline < armedFor) arm(deadline);
    },
    expired: () => failure,
    translate: (error) => failure ?? error,
    dispose() {
      clearTimeout(timer);
      timer = undefined;
      options.signal?.removeEventListener('abort', onCallerAbort);
    },
  };
}
