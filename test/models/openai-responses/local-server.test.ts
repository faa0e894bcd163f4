/**
 * Local servers that speak the OpenAI protocol: one clear message for a server without
 * `/v1/responses`, the server's own message when it speaks the API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/base/errors.ts';
import { createOpenAIResponsesClient } from '../../../src/models/openai-responses/client.ts';
import { ask, closeHarnesses, OLLAMA, startHarness } from '../protocol-harness.ts';

afterEach(closeHarnesses);

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
    const harness = await startHarness(OLLAMA, [
      { error: { status: 404, message: 'model "llama9" not found, try pulling it first' } },
    ]);
    const error = (await harness.client
      .generate(ask('hi'))
      .catch((caught: unknown) => caught)) as ProviderError;
    expect(error.message).toBe('404 model "llama9" not found, try pulling it first');
    expect(harness.server.requests[0]!.headers.authorization).toBe('[redacted]');
  });
});
