/**
 * The run's model clients: one per model (`config` + `key`), shared by every actor. A retry is
 * reported by the shared client's `onRetry` with the request object it retries, so each request
 * in flight is mapped to its actor and request id and the retry event names that actor.
 * (Async-local storage did this before; it switches on promise hooks for the whole process, a
 * tax on every promise of the run.)
 */
import type { RetryNotice } from '../models/retry.ts';
import type {
  ModelClient,
  ModelRequest,
  ModelResponse,
  ResolvedModel,
} from '../models/model-types.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type { EventBus } from '../runtime/event-bus.ts';
import { entryOf } from '../base/per-object.ts';

/** Which actor and request a client call belongs to, for retries reported by a shared client. */
export interface CallScope {
  actor: string;
  requestId: string;
}

export class RunClients {
  // Requests in flight (deleted when they settle): a WeakMap would burden every GC instead.
  private readonly calls = new Map<ModelRequest, CallScope>();
  private readonly clients = new Map<string, ModelClient>();

  constructor(
    private readonly bus: EventBus,
    private readonly factory: ModelClientFactory,
  ) {}

  /** Sends `sent` through the client of `model`; its retries are reported as `scope`'s. */
  async generate(
    model: ResolvedModel,
    sent: ModelRequest,
    scope: CallScope,
  ): Promise<ModelResponse> {
    const client = this.clientFor(model);
    this.calls.set(sent, scope);
    try {
      return await client.generate(sent);
    } finally {
      this.calls.delete(sent);
    }
  }

  private clientFor(model: ResolvedModel): ModelClient {
    const key = `${model.config}\u0000${model.key}`;
    return entryOf(this.clients, key, () => this.factory(model, { onRetry: this.onRetry }));
  }

  // A factory that wraps `onRetry` must pass the request on: a retry of an unknown request
  // names no actor, so it is not reported.
  private readonly onRetry = (notice: RetryNotice, retried?: ModelRequest): void => {
    const call = retried === undefined ? undefined : this.calls.get(retried);
    if (call === undefined) return;
    this.bus.emit({
      type: 'model.retry',
      actor: call.actor,
      requestId: call.requestId,
      attempt: notice.attempt,
      waitMs: notice.waitMs,
      reason: notice.reason,
      status: notice.status ?? null,
      message: notice.message,
    });
  };
}
