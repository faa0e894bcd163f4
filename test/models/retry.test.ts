import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/base/errors.ts';
import { ProviderTimeoutError } from '../../src/models/provider-errors.ts';
import { backoffDelay, withRetry, type RetryNotice } from '../../src/models/retry.ts';
import type {
  ModelClient,
  ModelRequest,
  ModelResponse,
  ResolvedModel,
} from '../../src/models/model-types.ts';

const model: ResolvedModel = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt_4o',
  apiName: 'gpt-4o',
  promptCaching: true,
  reasoningCapable: false,
};

const okResponse: ModelResponse = {
  message: { role: 'assistant', parts: [{ type: 'text', text: 'done' }] },
  stopReason: 'end',
  usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
  model: 'gpt-4o',
  warnings: [],
};

const request: ModelRequest = { system: '', messages: [], tools: [] };

/** A client failing with the given errors in order, then answering. */
function scriptedClient(failures: unknown[]): ModelClient & { calls: number } {
  const client = {
    model,
    calls: 0,
    generate: async () => {
      const failure = failures[client.calls++];
      if (failure !== undefined) throw failure;
      return okResponse;
    },
  };
  return client;
}

function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}

const retryable = (status = 503, retryAfterMs?: number): ProviderError =>
  new ProviderError(`${status} busy`, 'openai', status, true, retryAfterMs);

describe('backoffDelay', () => {
  it('doubles from 1 s with full jitter and caps at 60 s', () => {
    expect(
      [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => backoffDelay(attempt, () => 0.999999)),
    ).toEqual([999, 1999, 3999, 7999, 15999, 31999, 59999, 59999]);
    expect(backoffDelay(3, () => 0.5)).toBe(2000);
    expect(backoffDelay(1, () => 0)).toBe(0);
  });
});

describe('withRetry', () => {
  it('retries retryable errors with exponential waits and reports every wait', async () => {
    const client = scriptedClient([retryable(503), retryable(500), retryable(529)]);
    const { sleep, waits } = recordingSleep();
    const notices: RetryNotice[] = [];
    const wrapped = withRetry(client, {
      sleep,
      random: () => 0.5,
      onRetry: (notice) => notices.push(notice),
    });
    await expect(wrapped.generate(request)).resolves.toBe(okResponse);
    expect(client.calls).toBe(4);
    expect(waits).toEqual([500, 1000, 2000]);
    expect(notices).toEqual([
      { attempt: 1, waitMs: 500, reason: 'status', status: 503, message: '503 busy' },
      { attempt: 2, waitMs: 1000, reason: 'status', status: 500, message: '500 busy' },
      { attempt: 3, waitMs: 2000, reason: 'status', status: 529, message: '529 busy' },
    ]);
  });

  it('hands onRetry the very request object being retried (one client serves many callers)', async () => {
    const client = scriptedClient([retryable(503)]);
    const { sleep } = recordingSleep();
    const retried: unknown[] = [];
    const wrapped = withRetry(client, {
      sleep,
      random: () => 0.5,
      onRetry: (_notice, request) => retried.push(request),
    });
    await wrapped.generate(request);
    expect(retried).toHaveLength(1);
    expect(retried[0]).toBe(request);
  });

  it('waits exactly what the server asked for when retryAfterMs is set', async () => {
    const client = scriptedClient([retryable(429, 7000)]);
    const { sleep, waits } = recordingSleep();
    await withRetry(client, { sleep, random: () => 0.5 }).generate(request);
    expect(waits).toEqual([7000]);
  });

  it('gives up after 6 retries and throws the last error', async () => {
    const errors = Array.from({ length: 7 }, (_, index) => retryable(500 + index));
    const client = scriptedClient(errors);
    const { sleep, waits } = recordingSleep();
    await expect(withRetry(client, { sleep, random: () => 0.5 }).generate(request)).rejects.toBe(
      errors[6],
    );
    expect(client.calls).toBe(7);
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000, 16000]);
  });

  it('caps each wait at 60 s when more retries are allowed', async () => {
    const client = scriptedClient(Array.from({ length: 8 }, () => retryable()));
    const { sleep, waits } = recordingSleep();
    await withRetry(client, { sleep, random: () => 0.5, maxRetries: 8 }).generate(request);
    expect(waits.slice(5)).toEqual([16000, 30000, 30000]);
  });

  it('does not retry non-retryable provider errors or other errors', async () => {
    const fatal = new ProviderError('401 bad key', 'openai', 401, false);
    const client = scriptedClient([fatal]);
    const { sleep, waits } = recordingSleep();
    await expect(withRetry(client, { sleep }).generate(request)).rejects.toBe(fatal);
    expect(waits).toEqual([]);

    const defect = new TypeError('broken');
    await expect(withRetry(scriptedClient([defect]), { sleep }).generate(request)).rejects.toBe(
      defect,
    );
    expect(waits).toEqual([]);
  });

  it('names timeouts in the notice reason', async () => {
    const client = scriptedClient([new ProviderTimeoutError('openai', 'idle', 120_000)]);
    const notices: RetryNotice[] = [];
    await withRetry(client, {
      sleep: async () => {},
      random: () => 0,
      onRetry: (notice) => notices.push(notice),
    }).generate(request);
    expect(notices).toEqual([
      {
        attempt: 1,
        waitMs: 0,
        reason: 'timeout_idle',
        message: 'the response stream was silent for 120 s',
      },
    ]);
  });

  it('stops waiting when the request is aborted during a wait', async () => {
    const controller = new AbortController();
    const client = scriptedClient([retryable(503, 60_000), retryable(503)]);
    const wrapped = withRetry(client, {
      onRetry: () => queueMicrotask(() => controller.abort(new Error('stopped'))),
    });
    await expect(wrapped.generate({ ...request, signal: controller.signal })).rejects.toThrow(
      'stopped',
    );
    expect(client.calls).toBe(1);
  });

  it('does not retry once the request is already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const client = scriptedClient([retryable()]);
    await expect(
      withRetry(client, { sleep: async () => {} }).generate({
        ...request,
        signal: controller.signal,
      }),
    ).rejects.toThrow('cancelled');
    expect(client.calls).toBe(1);
  });
});
