import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../src/errors.ts';
import { createModelClient } from '../../src/models/create-client.ts';
import { ProviderTimeoutError } from '../../src/models/provider-errors.ts';
import type { RetryNotice } from '../../src/models/retry.ts';
import type { ModelClient } from '../../src/models/types.ts';
import type { ResolvedModel } from '../../src/models/types.ts';
import type { ProtocolHandler } from '../../src/testing/protocol.ts';
import { anthropicProtocol } from '../../src/testing/protocols/anthropic.ts';
import { geminiProtocol } from '../../src/testing/protocols/gemini.ts';
import type { Protocol, ScriptTurn } from '../../src/testing/script.ts';
import { ScriptedModelServer } from '../../src/testing/server.ts';
import { SONNET, WEATHER_TOOL } from './anthropic/conversation.ts';
import { FLASH } from './gemini/conversation.ts';

/**
 * The retry policy seen through each non-OpenAI adapter and its real SDK (the OpenAI
 * Responses adapter has its own suite, with the local-server cases).
 */
interface ProviderCase {
  name: string;
  protocol: Protocol;
  handler: ProtocolHandler;
  model: ResolvedModel;
  /** How the provider's stream marks its end, for the truncation test's name. */
  streamEnd: string;
}

const PROVIDERS: ProviderCase[] = [
  {
    name: 'Anthropic',
    protocol: 'anthropic',
    handler: anthropicProtocol,
    model: SONNET,
    streamEnd: 'message_stop',
  },
  {
    name: 'Gemini',
    protocol: 'gemini',
    handler: geminiProtocol,
    model: FLASH,
    streamEnd: 'its finish reason',
  },
];

let server: ScriptedModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Harness {
  server: ScriptedModelServer;
  client: ModelClient;
  notices: RetryNotice[];
  waits: number[];
}

async function start(
  provider: ProviderCase,
  turns: ScriptTurn[],
  timeouts?: { firstByteMs?: number; idleMs?: number },
): Promise<Harness> {
  server = await ScriptedModelServer.start({ turns, handlers: [provider.handler] });
  const notices: RetryNotice[] = [];
  const waits: number[] = [];
  const client = createModelClient(
    { ...provider.model, baseUrl: server.baseUrl(provider.protocol) },
    {
      onRetry: (notice) => notices.push(notice),
      retry: {
        random: () => 0.5,
        sleep: async (milliseconds) => {
          waits.push(milliseconds);
        },
      },
      ...(timeouts !== undefined ? { timeouts } : {}),
    },
  );
  return { server, client, notices, waits };
}

const REQUEST = {
  system: 'You are a weather agent.',
  messages: [{ role: 'user' as const, parts: [{ type: 'text' as const, text: 'Weather?' }] }],
  tools: [WEATHER_TOOL],
};

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe.each(PROVIDERS)('$name faults through createModelClient', (provider) => {
  it('waits as Retry-After asks after a 429, then succeeds', async () => {
    const { client, notices, waits, server } = await start(provider, [
      { error: { status: 429, message: 'rate limited', retryAfter: '7' } },
      { text: 'ok' },
    ]);
    expect((await client.generate(REQUEST)).message.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(waits).toEqual([7000]);
    expect(notices).toEqual([
      { attempt: 1, waitMs: 7000, reason: 'status', status: 429, message: 'rate limited' },
    ]);
    expect(server.requests).toHaveLength(2);
  });

  it('prefers retry-after-ms when the server sends it', async () => {
    const { client, waits } = await start(provider, [
      { error: { status: 429, message: 'rate limited', retryAfterMs: 250, retryAfter: '30' } },
      { text: 'ok' },
    ]);
    await client.generate(REQUEST);
    expect(waits).toEqual([250]);
  });

  it('backs off exponentially after a 429 without Retry-After', async () => {
    const { client, waits } = await start(provider, [
      { error: { status: 429, message: 'rate limited' } },
      { error: { status: 429, message: 'rate limited' } },
      { text: 'ok' },
    ]);
    await client.generate(REQUEST);
    // Full jitter with random() = 0.5: half of 1 s, then half of 2 s.
    expect(waits).toEqual([500, 1000]);
  });

  it.each([500, 503, 529])('recovers from a %i', async (status) => {
    const { client, notices } = await start(provider, [
      { error: { status, message: `scripted ${status}` } },
      { text: 'ok' },
    ]);
    expect((await client.generate(REQUEST)).stopReason).toBe('end');
    expect(notices.map((notice) => [notice.status, notice.reason, notice.message])).toEqual([
      [status, 'status', `scripted ${status}`],
    ]);
  });

  it('recovers from a connection reset', async () => {
    const { client, notices } = await start(provider, [{ reset: true }, { text: 'ok' }]);
    expect((await client.generate(REQUEST)).message.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(notices.map((notice) => notice.reason)).toEqual(['network']);
  });

  it(`recovers from a stream that ends before ${provider.streamEnd}`, async () => {
    const { client, notices } = await start(provider, [
      { truncate: true, text: 'partial answer here' },
      { text: 'whole' },
    ]);
    expect((await client.generate(REQUEST)).message.parts).toEqual([
      { type: 'text', text: 'whole' },
    ]);
    expect(notices.map((notice) => notice.reason)).toEqual(['truncated_stream']);
  });

  it('recovers from a stream that falls silent', async () => {
    const { client, notices } = await start(
      provider,
      [{ stallMs: 5000, text: 'slow answer here' }, { text: 'fast' }],
      {
        idleMs: 100,
      },
    );
    expect((await client.generate(REQUEST)).message.parts).toEqual([
      { type: 'text', text: 'fast' },
    ]);
    expect(notices.map((notice) => notice.reason)).toEqual(['timeout_idle']);
  });

  it('fails with a timeout once retries are spent on a server that never answers', async () => {
    const { client } = await start(
      provider,
      Array.from({ length: 7 }, () => ({ delayMs: 5000, text: 'late' })),
      { firstByteMs: 50 },
    );
    const error = await failure(client.generate(REQUEST));
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as ProviderTimeoutError).timeout).toBe('first_byte');
  });

  it.each([400, 401, 403, 404, 422])(
    'fails at once on a %i with the provider message and no API key',
    async (status) => {
      const message = `bad request for key ${provider.model.apiKey}`;
      const { client, server, notices } = await start(provider, [{ error: { status, message } }]);
      const error = await failure(client.generate(REQUEST));
      expect(error.status).toBe(status);
      expect(error.retryable).toBe(false);
      expect(error.provider).toBe(provider.protocol);
      expect(error.message).toBe('bad request for key [redacted]');
      expect(error.message).not.toContain(provider.model.apiKey!);
      expect(notices).toEqual([]);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('stops at once when the caller aborts', async () => {
    const { client, notices } = await start(provider, [{ delayMs: 5000, text: 'late' }]);
    const controller = new AbortController();
    const pending = client.generate({ ...REQUEST, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by test')), 20);
    await expect(pending).rejects.toThrow('cancelled by test');
    expect(notices).toEqual([]);
  });
});
