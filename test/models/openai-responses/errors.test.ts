import { APIConnectionError, APIError, APIUserAbortError } from 'openai';
import { describe, expect, it } from 'vitest';
import type { ProviderError } from '../../../src/base/errors.ts';
import { createOpenAIResponsesClient } from '../../../src/models/openai-responses/client.ts';
import {
  responsesApiMissingMessage,
  toProviderError,
} from '../../../src/models/openai-responses/errors.ts';
import { ProviderNetworkError } from '../../../src/models/provider-errors.ts';
import type { ResolvedModel } from '../../../src/models/model-types.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';

const model: ResolvedModel = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt_4o',
  apiName: 'gpt-4o',
  apiKey: 'sk-live-0123456789abcdef',
  promptCaching: true,
  reasoningCapable: false,
};

describe('toProviderError', () => {
  it('keeps status, retryability and Retry-After from an HTTP error', () => {
    const error = APIError.generate(
      529,
      { error: { message: 'Overloaded' } },
      undefined,
      new Headers({ 'retry-after': '4' }),
    );
    const mapped = toProviderError(error, model) as ProviderError;
    expect([mapped.message, mapped.status, mapped.retryable, mapped.retryAfterMs]).toEqual([
      '529 Overloaded',
      529,
      true,
      4000,
    ]);
  });

  it('classifies connection failures by their system code', () => {
    const refused = new APIConnectionError({
      cause: Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' }),
    });
    const mapped = toProviderError(refused, model);
    expect(mapped).toBeInstanceOf(ProviderNetworkError);
    expect([
      (mapped as ProviderNetworkError).network,
      (mapped as ProviderNetworkError).retryable,
    ]).toEqual(['connection_refused', true]);
  });

  it('retries an error object inside the stream only for server-side codes', () => {
    const serverSide = new APIError(
      undefined,
      { type: 'server_error', code: 'server_error', message: 'try later' },
      undefined,
      undefined,
    );
    expect((toProviderError(serverSide, model) as ProviderError).retryable).toBe(true);
    const invalid = new APIError(
      undefined,
      { type: 'invalid_request_error', code: 'invalid_prompt', message: 'no' },
      undefined,
      undefined,
    );
    expect((toProviderError(invalid, model) as ProviderError).retryable).toBe(false);
  });

  it('returns the caller abort reason unchanged', () => {
    const controller = new AbortController();
    const reason = new Error('stop');
    controller.abort(reason);
    expect(toProviderError(new APIUserAbortError(), model, controller.signal)).toBe(reason);
  });

  it('wraps unknown failures as non-retryable with the key redacted', () => {
    const mapped = toProviderError(new Error(`boom with ${model.apiKey}`), model) as ProviderError;
    expect([mapped.message, mapped.retryable, mapped.status]).toEqual([
      'boom with [redacted]',
      false,
      undefined,
    ]);
  });

  it('words the missing Responses API hint exactly', () => {
    expect(responsesApiMissingMessage('http://localhost:11434/v1')).toBe(
      'the server at http://localhost:11434/v1 does not implement the Responses API (/v1/responses); Ollama needs 0.13.3 or newer',
    );
  });
});

describe('a refused connection through the SDK', () => {
  it('becomes a retryable connection_refused error', async () => {
    const server = await ScriptedModelServer.start();
    const baseUrl = server.baseUrl('openai');
    await server.close();
    const client = createOpenAIResponsesClient({ ...model, baseUrl });
    const error = await client
      .generate({
        system: '',
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
        tools: [],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderNetworkError);
    expect((error as ProviderNetworkError).network).toBe('connection_refused');
  });
});

describe('a hosted model without an API key', () => {
  it('fails the turn with a non-retryable error instead of throwing at creation', async () => {
    const saved = process.env.OPENAI_API_KEY;
    delete process.env.OPENAI_API_KEY;
    try {
      const client = createOpenAIResponsesClient({
        ...model,
        apiKey: undefined,
        baseUrl: 'http://127.0.0.1:9/v1',
      });
      const error = await client
        .generate({ system: '', messages: [], tools: [] })
        .catch((caught: unknown) => caught);
      expect([(error as ProviderError).message, (error as ProviderError).retryable]).toEqual([
        'openai: no API key configured',
        false,
      ]);
    } finally {
      if (saved !== undefined) process.env.OPENAI_API_KEY = saved;
    }
  });
});
