/**
 * The model SDKs on sortie's HTTP transport, over real HTTP: every adapter sends through it
 * (not the global fetch, whose requests carry `sec-fetch-mode` and `accept-encoding`); each SDK
 * reads streamed and non-streamed answers through it; and where a request fails (refused, cut
 * mid-stream, aborted, an error status) the SDKs raise what they raise on the global fetch and
 * the adapters turn that into the same ProviderErrors.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { sdkFetch } from '../../../src/base/http/index.ts';
import { ProviderError } from '../../../src/base/errors.ts';
import { createAdapter } from '../../../src/models/create-client.ts';
import { LocalServerDownError, ProviderNetworkError } from '../../../src/models/provider-errors.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
import { ask, closeHarnesses, PROTOCOL_CASES, startHarness } from '../protocol-harness.ts';
import { closedPort } from '../../fixtures/closed-port.ts';

const servers: Array<{ close(): unknown }> = [];

afterEach(async () => {
  await closeHarnesses();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server that answers every request with `frame` of a stream, then drops the connection. */
async function cuttingServer(frame: string): Promise<string> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(frame);
      setTimeout(() => response.socket?.destroy(), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({ close: () => new Promise((resolve) => server.close(resolve)) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** An error as the adapters read it: its class, message and the codes down its cause chain. */
function described(error: unknown): { type: string; message: string; causes: string[] } {
  const causes: string[] = [];
  let cause = (error as { cause?: unknown }).cause;
  while (cause !== undefined && cause !== null && causes.length < 5) {
    const { name, code } = cause as { name?: string; code?: string };
    causes.push(code ?? name ?? String(cause));
    cause = (cause as { cause?: unknown }).cause;
  }
  return { type: (error as Error).constructor.name, message: (error as Error).message, causes };
}

type Fetch = typeof fetch;

/** One streamed request of each SDK, read to its end; the text of its deltas. */
const STREAMS: Record<string, (baseUrl: string, fetch: Fetch) => Promise<string>> = {
  openai: async (baseUrl, fetch) => {
    const sdk = new OpenAI({ apiKey: 'sk-test', baseURL: `${baseUrl}/v1`, maxRetries: 0, fetch });
    let text = '';
    const stream = await sdk.responses.create({ model: 'gpt-5', input: 'hi', stream: true });
    for await (const event of stream)
      if (event.type === 'response.output_text.delta') text += event.delta;
    return text;
  },
  anthropic: async (baseUrl, fetch) => {
    const sdk = new Anthropic({ apiKey: 'sk-ant-test', baseURL: baseUrl, maxRetries: 0, fetch });
    let text = '';
    const stream = await sdk.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        text += event.delta.text;
      }
    }
    return text;
  },
  gemini: async (baseUrl, fetch) => {
    const sdk = new GoogleGenAI({ apiKey: 'gemini-test', httpOptions: { baseUrl, fetch } });
    let text = '';
    const stream = await sdk.models.generateContentStream({
      model: 'gemini-2.5-flash',
      contents: 'hi',
    });
    for await (const chunk of stream) text += chunk.text ?? '';
    return text;
  },
};

/** One non-streamed request of each SDK; the answer's text. */
const SINGLES: Record<string, (baseUrl: string) => Promise<string>> = {
  openai: async (baseUrl) => {
    const sdk = new OpenAI({ apiKey: 'sk-test', baseURL: `${baseUrl}/v1`, fetch: sdkFetch });
    return (await sdk.responses.create({ model: 'gpt-5', input: 'hi' })).output_text;
  },
  anthropic: async (baseUrl) => {
    const sdk = new Anthropic({ apiKey: 'sk-ant-test', baseURL: baseUrl, fetch: sdkFetch });
    const message = await sdk.messages.create({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    });
    return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  },
  gemini: async (baseUrl) => {
    const sdk = new GoogleGenAI({
      apiKey: 'gemini-test',
      httpOptions: { baseUrl, fetch: sdkFetch },
    });
    return (
      (await sdk.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi' })).text ?? ''
    );
  },
};

const PROTOCOLS = ['openai', 'anthropic', 'gemini'] as const;

describe.each(PROTOCOL_CASES)('$name adapter on the transport', (protocolCase) => {
  /** The case's model on a server at `baseUrl` (OpenAI's SDK wants the `/v1` in it). */
  const modelAt = (baseUrl: string) => ({
    ...protocolCase.model,
    baseUrl: protocolCase.protocol === 'openai' ? `${baseUrl}/v1` : baseUrl,
  });
  it('sends through the transport, not the global fetch', async () => {
    const { adapter, server } = await startHarness(protocolCase, [
      { text: 'hello' },
      { text: 'again' },
    ]);
    await adapter.generate(ask('hi'));
    await adapter.generate(ask('hi again'));
    const headers = server.requests.map((request) => [
      request.headers['sec-fetch-mode'],
      request.headers['accept-encoding'],
      request.headers['accept-language'],
    ]);
    expect(headers).toEqual([
      [undefined, undefined, '*'],
      [undefined, undefined, '*'],
    ]);
  });

  it.each([
    { status: 429, retryAfter: '7', retryAfterMs: undefined, waits: 7000, retryable: true },
    { status: 503, retryAfter: '30', retryAfterMs: 250, waits: 250, retryable: true },
    {
      status: 400,
      retryAfter: undefined,
      retryAfterMs: undefined,
      waits: undefined,
      retryable: false,
    },
  ])(
    'turns a $status with its Retry-After into the ProviderError it was',
    async ({ status, retryAfter, retryAfterMs, waits, retryable }) => {
      const { adapter } = await startHarness(protocolCase, [
        { error: { status, message: 'scripted failure', retryAfter, retryAfterMs } },
      ]);
      const error = await adapter.generate(ask('hi')).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ProviderError);
      const failed = error as ProviderError;
      expect([failed.status, failed.retryable, failed.retryAfterMs, failed.message]).toEqual([
        status,
        retryable,
        waits,
        protocolCase.statusMessage(status, 'scripted failure'),
      ]);
    },
  );

  it('turns a refused connection into a network error (a local server into "nothing answers")', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const model = modelAt(baseUrl);
    const error = await createAdapter(model)
      .generate(ask('hi'))
      .catch((caught: unknown) => caught);
    if (model.provider === 'ollama') {
      expect(error).toBeInstanceOf(LocalServerDownError);
    } else {
      expect([
        error instanceof ProviderNetworkError,
        (error as ProviderNetworkError).network,
      ]).toEqual([true, 'connection_refused']);
    }
  });

  it('turns a stream cut off mid-way into a reset connection, retryable', async () => {
    const baseUrl = await cuttingServer(protocolCase.overloadFrames[0]!);
    const model = modelAt(baseUrl);
    const error = await createAdapter(model)
      .generate(ask('hi'))
      .catch((caught: unknown) => caught);
    expect([
      error instanceof ProviderNetworkError,
      (error as ProviderNetworkError).network,
      (error as ProviderError).retryable,
    ]).toEqual([true, 'connection_reset', true]);
  });

  it("passes a caller's abort in the middle of a stream through at once", async () => {
    let stalled: () => void = () => undefined;
    const midStream = new Promise<void>((resolve) => (stalled = resolve));
    const { adapter, server } = await startHarness(protocolCase, [
      { text: 'one two three four', stallMs: 10_000, stalled },
    ]);
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    const pending = adapter.generate(ask('hi', { signal: controller.signal }));
    // The head and the first frames are sent; the rest waits 10 s.
    await midStream;
    expect(server.requests).toHaveLength(1);
    const aborted = Date.now();
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(Date.now() - aborted).toBeLessThan(2000);
  });
});

describe.each(PROTOCOLS)('the %s SDK on sdkFetch', (protocol) => {
  /** How the SDK's stream from `baseUrl` fails on `fetch` (undefined: it did not). */
  const streamFailure = (baseUrl: string, fetch: Fetch) =>
    STREAMS[protocol]!(baseUrl, fetch).then(
      () => undefined,
      (error: unknown) => described(error),
    );

  it('reads a streamed answer and a whole one', async () => {
    const server = await ScriptedModelServer.start({
      turns: [{ text: 'streamed answer' }, { text: 'whole answer' }],
    });
    servers.push(server);
    expect(await STREAMS[protocol]!(server.url, sdkFetch)).toBe('streamed answer');
    expect(await SINGLES[protocol]!(server.url)).toBe('whole answer');
    expect(
      server.requests.map((request) => [request.stream, request.headers['sec-fetch-mode']]),
    ).toEqual([
      [true, undefined],
      [false, undefined],
    ]);
  });

  it('raises what it raises on the global fetch when the connection is refused', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const mine = await streamFailure(baseUrl, sdkFetch);
    expect(mine).toEqual(await streamFailure(baseUrl, fetch));
    expect(mine?.causes).toContain('ECONNREFUSED');
  });

  it('raises what it raises on the global fetch when the stream is cut mid-way', async () => {
    const protocolCase = PROTOCOL_CASES.find((each) => each.protocol === protocol)!;
    const baseUrl = await cuttingServer(protocolCase.overloadFrames[0]!);
    const mine = await streamFailure(baseUrl, sdkFetch);
    expect(mine).toEqual(await streamFailure(baseUrl, fetch));
    expect(mine).toMatchObject({
      type: 'TypeError',
      message: 'terminated',
      causes: ['UND_ERR_SOCKET'],
    });
  });
});
