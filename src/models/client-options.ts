import type { RetryNotice, RetryOptions } from './retry.ts';
import type { ModelRequest } from './model-types.ts';
import type { ModelTimeouts } from './timeouts.ts';

/** Options every adapter factory takes; all optional, defaults per models.md. */
export interface ClientOptions {
  /** Overrides of the three deadlines (tests use short ones). */
  timeouts?: Partial<ModelTimeouts>;
  /** Called before every retry wait, with the request retried; becomes a `model.retry` event. */
  onRetry?: (notice: RetryNotice, request: ModelRequest) => void;
  /** Retry policy knobs (tests inject sleep and random). */
  retry?: Omit<RetryOptions, 'onRetry'>;
}
