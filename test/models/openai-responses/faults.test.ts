import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/errors.ts';
import { createOpenAIResponsesClient } from '../../../src/models/openai-responses/client.ts';
import {
  ProviderNetworkError,
  ProviderTimeoutError,
  TruncatedStreamError,
} from '../../../src/models/provider-errors.ts';
import { API_KEY, ask, startHarness, type Harness } from './harness.ts';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.server.close();
  harness = undefined;
});

const answered = [{ type: 'text', text: 'recovered' }];

describe('retryable faults are recovered', () => {
  it('429 with Retry-After waits what the server asked', async () => {
    harness = await startHarness([
      { error: { status: 429, retryAfter: '2' } },
      { text: 'recovered' },
    ]);
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.notices).toEqual([
      {
        attempt: 1,
        waitMs: 2000,
        reason: 'status',
        status: 429,
        message: '429 scripted error 429',
      },
    ]);
  });

  it('429 with retry-after-ms waits those milliseconds', async () => {
    harness = await startHarness([
      { error: { status: 429, retryAfterMs: 750 } },
      { text: 'recovered' },
    ]);
    await harness.client.generate(ask('hi'));
    expect(harness.waits).toEqual([750]);
  });

  it('429 without Retry-After backs off exponentially', async () => {
    harness = await startHarness([
      { error: { status: 429 } },
      { error: { status: 429 } },
      { text: 'recovered' },
    ]);
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.waits).toEqual([500, 1000]);
  });

  it.each([500, 503, 529])('%i is retried', async (status) => {
    harness = await startHarness([
      { error: { status, message: 'overloaded' } },
      { text: 'recovered' },
    ]);
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.notices.map((notice) => [notice.reason, notice.status, notice.message])).toEqual(
      [['status', status, `${status} overloaded`]],
    );
  });

  it('a connection reset is retried', async () => {
    harness = await startHarness([{ reset: true }, { text: 'recovered' }]);
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.notices.map((notice) => notice.reason)).toEqual(['network']);
  });

  it('a stream silent past the idle timeout is retried', async () => {
    harness = await startHarness(
      [{ text: 'never finished', stallMs: 10_000 }, { text: 'recovered' }],
      {
        timeouts: { idleMs: 500 },
      },
    );
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.notices.map((notice) => notice.reason)).toEqual(['timeout_idle']);
  });

  it('no first byte within the first-byte timeout is retried', async () => {
    harness = await startHarness([{ text: 'too late', delayMs: 10_000 }, { text: 'recovered' }], {
      timeouts: { firstByteMs: 500 },
    });
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.notices.map((notice) => notice.reason)).toEqual(['timeout_first_byte']);
  });

  it('a stream that ends before response.completed is retried', async () => {
    harness = await startHarness([{ text: 'cut short', truncate: true }, { text: 'recovered' }]);
    const response = await harness.client.generate(ask('hi'));
    expect(response.message.parts).toEqual(answered);
    expect(harness.notices.map((notice) => notice.reason)).toEqual(['truncated_stream']);
  });
});

describe('adapter errors without the retry wrapper', () => {
  it('maps each fault to its ProviderError subclass', async () => {
    harness = await startHarness([
      { reset: true },
      { text: 'x', truncate: true },
      { text: 'y', stallMs: 10_000 },
    ]);
    const adapter = createOpenAIResponsesClient(
      { ...harness.client.model, baseUrl: harness.server.baseUrl('openai') },
      { timeouts: { idleMs: 500 } },
    );
    await expect(adapter.generate(ask('a'))).rejects.toBeInstanceOf(ProviderNetworkError);
    await expect(adapter.generate(ask('b'))).rejects.toBeInstanceOf(TruncatedStreamError);
    const stalled = await adapter.generate(ask('c')).catch((error: unknown) => error);
    expect(stalled).toBeInstanceOf(ProviderTimeoutError);
    expect((stalled as ProviderTimeoutError).timeout).toBe('idle');
  });

  it('a caller abort is passed through and not retried', async () => {
    harness = await startHarness([{ text: 'slow', delayMs: 10_000 }, { text: 'unused' }]);
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    const pending = harness.client.generate(ask('hi', { signal: controller.signal }));
    // Abort once the server holds the request (it waits 10 s before answering).
    while (harness.server.requests.length === 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(harness.notices).toEqual([]);
    expect(harness.server.unusedTurns()).toEqual([1]);
  });
});

describe('non-retryable statuses fail with the provider message', () => {
  it.each([400, 401, 403, 404, 422])('%i fails at once, key redacted', async (status) => {
    harness = await startHarness([
      { error: { status, message: `Incorrect API key provided: ${API_KEY}` } },
    ]);
    const error = await harness.client.generate(ask('hi')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    const failure = error as ProviderError;
    expect([failure.status, failure.retryable, failure.provider]).toEqual([
      status,
      false,
      'openai',
    ]);
    expect(failure.message).toBe(`${status} Incorrect API key provided: [redacted]`);
    expect(harness.notices).toEqual([]);
  });
});

describe('local servers without the Responses API', () => {
  let legacy: Server | undefined;
  afterEach(async () => {
    if (legacy !== undefined) await new Promise((resolve) => legacy!.close(resolve));
    legacy = undefined;
  });

  it('a 404 page from the server gets the Ollama version hint', async () => {
    legacy = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('404 page not found');
    });
    await new Promise<void>((resolve) => legacy!.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(legacy.address() as AddressInfo).port}/v1`;
    const client = createOpenAIResponsesClient({
      provider: 'ollama',
      config: 'local',
      key: 'llama',
      apiName: 'llama3.2:3b',
      baseUrl,
      promptCaching: true,
      reasoningCapable: false,
    });
    const error = (await client
      .generate(ask('hi'))
      .catch((caught: unknown) => caught)) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe(
      `the server at ${baseUrl} does not implement the Responses API (/v1/responses); Ollama needs 0.13.3 or newer`,
    );
    expect([error.status, error.retryable]).toEqual([404, false]);
  });

  it('a JSON 404 (the server speaks the API, e.g. an unknown model) keeps the server message', async () => {
    harness = await startHarness(
      [{ error: { status: 404, message: 'model "llama9" not found, try pulling it first' } }],
      {
        model: { provider: 'ollama', apiKey: undefined, reasoningCapable: false },
      },
    );
    const error = (await harness.client
      .generate(ask('hi'))
      .catch((caught: unknown) => caught)) as ProviderError;
    expect(error.message).toBe('404 model "llama9" not found, try pulling it first');
    expect(harness.server.requests[0]!.headers.authorization).toBe('[redacted]');
  });
});
