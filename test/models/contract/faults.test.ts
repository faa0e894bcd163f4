/**
 * Faults every model client must handle the same way, run against each protocol through its
 * real SDK and the scripted server: every retryable fault is retried with the one backoff
 * policy, non-retryable errors fail at once with the provider's message and no key, a
 * caller abort is passed through.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/base/errors.ts';
import {
  ProviderNetworkError,
  ProviderTimeoutError,
  TruncatedStreamError,
} from '../../../src/models/provider-errors.ts';
import { ask, closeHarnesses, PROTOCOL_CASES, startHarness } from '../protocol-harness.ts';
import { until } from '../../helpers/until.ts';

afterEach(closeHarnesses);

const RECOVERED = [{ type: 'text', text: 'recovered' }];

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe.each(PROTOCOL_CASES)('$name client contract: faults', (protocolCase) => {
  it('waits as Retry-After asks after a 429, then succeeds', async () => {
    const { client, notices, waits, server } = await startHarness(protocolCase, [
      { error: { status: 429, message: 'rate limited', retryAfter: '7' } },
      { text: 'recovered' },
    ]);
    expect((await client.generate(ask('hi'))).message.parts).toEqual(RECOVERED);
    expect(waits).toEqual([7000]);
    expect(notices).toEqual([
      {
        attempt: 1,
        waitMs: 7000,
        reason: 'status',
        status: 429,
        message: protocolCase.statusMessage(429, 'rate limited'),
      },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('prefers retry-after-ms when the server sends it', async () => {
    const { client, waits } = await startHarness(protocolCase, [
      { error: { status: 429, retryAfterMs: 250, retryAfter: '30' } },
      { text: 'recovered' },
    ]);
    await client.generate(ask('hi'));
    expect(waits).toEqual([250]);
  });

  it('backs off exponentially after a 429 without Retry-After', async () => {
    const { client, waits } = await startHarness(protocolCase, [
      { error: { status: 429 } },
      { error: { status: 429 } },
      { text: 'recovered' },
    ]);
    await client.generate(ask('hi'));
    // Full jitter with random() = 0.5: half of 1 s, then half of 2 s.
    expect(waits).toEqual([500, 1000]);
  });

  it.each([408, 409, 500, 502, 503, 504, 529])('recovers from a %i', async (status) => {
    const { client, notices } = await startHarness(protocolCase, [
      { error: { status, message: `scripted ${status}` } },
      { text: 'recovered' },
    ]);
    expect((await client.generate(ask('hi'))).message.parts).toEqual(RECOVERED);
    expect(notices.map((notice) => [notice.reason, notice.status, notice.message])).toEqual([
      ['status', status, protocolCase.statusMessage(status, `scripted ${status}`)],
    ]);
  });

  it.each([
    { fault: 'a connection reset', turn: { reset: true }, reason: 'network' },
    {
      fault: 'a stream that ends before its final event',
      turn: { text: 'cut short here', truncate: true },
      reason: 'truncated_stream',
    },
    {
      fault: 'a stream cut in the middle of an event',
      turn: { text: 'cut short here', truncate: 'mid-frame' },
      reason: 'truncated_stream',
    },
  ] as const)('recovers from $fault', async ({ turn, reason }) => {
    const { client, notices } = await startHarness(protocolCase, [turn, { text: 'recovered' }]);
    expect((await client.generate(ask('hi'))).message.parts).toEqual(RECOVERED);
    expect(notices.map((notice) => notice.reason)).toEqual([reason]);
  });

  it('recovers from an overload error sent inside the stream', async () => {
    const { client, notices } = await startHarness(protocolCase, [
      { frames: protocolCase.overloadFrames },
      { text: 'recovered' },
    ]);
    expect((await client.generate(ask('hi'))).message.parts).toEqual(RECOVERED);
    expect(notices).toMatchObject([{ attempt: 1, ...protocolCase.overloadNotice }]);
  });

  it('recovers from a stream that falls silent', async () => {
    const { client, notices } = await startHarness(
      protocolCase,
      [{ text: 'slow answer here', stallMs: 10_000 }, { text: 'recovered' }],
      { timeouts: { idleMs: 100 } },
    );
    expect((await client.generate(ask('hi'))).message.parts).toEqual(RECOVERED);
    expect(notices.map((notice) => notice.reason)).toEqual(['timeout_idle']);
  });

  it('fails with a first-byte timeout once its retries are spent', async () => {
    const { client, notices } = await startHarness(
      protocolCase,
      Array.from({ length: 7 }, () => ({ text: 'late', delayMs: 10_000 })),
      { timeouts: { firstByteMs: 50 } },
    );
    const error = await failure(client.generate(ask('hi')));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).timeout).toBe('first_byte');
    expect(notices).toHaveLength(6);
  });

  it('maps each fault to its error class without the retry policy', async () => {
    const { adapter } = await startHarness(
      protocolCase,
      [
        { reset: true },
        { text: 'cut short here', truncate: 'mid-frame' },
        { text: 'x y', stallMs: 10_000 },
      ],
      { timeouts: { idleMs: 100 } },
    );
    await expect(adapter.generate(ask('a'))).rejects.toBeInstanceOf(ProviderNetworkError);
    await expect(adapter.generate(ask('b'))).rejects.toBeInstanceOf(TruncatedStreamError);
    const stalled = await failure(adapter.generate(ask('c')));
    expect([stalled.constructor, (stalled as ProviderTimeoutError).timeout]).toEqual([
      ProviderTimeoutError,
      'idle',
    ]);
  });

  it.each([400, 401, 403, 404, 422])(
    'fails at once on a %i with the provider message and no API key',
    async (status) => {
      // A keyless (local) model has no secret to hide.
      const key = protocolCase.model.apiKey;
      const told = key === undefined ? 'bad request' : `bad request for key ${key}`;
      const shown = key === undefined ? 'bad request' : 'bad request for key [redacted]';
      const { client, server, notices } = await startHarness(protocolCase, [
        { error: { status, message: told } },
      ]);
      const error = await failure(client.generate(ask('hi')));
      expect([error.status, error.retryable, error.provider, error.message]).toEqual([
        status,
        false,
        protocolCase.model.provider,
        protocolCase.statusMessage(status, shown),
      ]);
      expect(notices).toEqual([]);
      expect(server.requests).toHaveLength(1);
      if (key !== undefined) expect(JSON.stringify(server.requests)).not.toContain(key);
    },
  );

  it('passes a caller abort through without retrying', async () => {
    const { client, notices, server } = await startHarness(protocolCase, [
      { text: 'slow', delayMs: 10_000 },
      { text: 'unused' },
    ]);
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    const pending = client.generate(ask('hi', { signal: controller.signal }));
    // Abort once the server holds the request (it waits 10 s before answering).
    await until('the request', () => server.requests.length > 0, { pauseMs: 0 });
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(notices).toEqual([]);
    expect(server.unusedTurns()).toEqual([1]);
  });
});
