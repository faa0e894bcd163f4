import { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/base/errors.ts';
import { toAnthropicProviderError } from '../../../src/models/anthropic/errors.ts';
import { ProviderNetworkError } from '../../../src/models/provider-errors.ts';

const KEY = 'sk-ant-api03-secret-abcdef';

function apiError(status: number, message: string, headers: Record<string, string> = {}): APIError {
  const body = { type: 'error', error: { type: 'invalid_request_error', message } };
  return APIError.generate(status, body, undefined, new Headers(headers));
}

describe('toAnthropicProviderError', () => {
  it.each([
    [408, true],
    [409, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [504, true],
    [529, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [413, false],
    [422, false],
  ])('decides retryability of a %i from the status', (status, retryable) => {
    const error = toAnthropicProviderError(apiError(status, 'nope'), KEY) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect([error.status, error.retryable, error.provider, error.message]).toEqual([
      status,
      retryable,
      'anthropic',
      'nope',
    ]);
  });

  it('reads retry-after-ms before Retry-After', () => {
    const error = toAnthropicProviderError(
      apiError(429, 'slow', { 'retry-after-ms': '1500', 'retry-after': '9' }),
      KEY,
    );
    expect((error as ProviderError).retryAfterMs).toBe(1500);
  });

  it('redacts the API key from the provider message', () => {
    const error = toAnthropicProviderError(
      apiError(401, `invalid x-api-key: ${KEY}`),
      KEY,
    ) as ProviderError;
    expect(error.message).toBe('invalid x-api-key: [redacted]');
  });

  it('retries an overloaded error sent inside the stream, not an invalid request', () => {
    const overloaded = new APIError(
      undefined,
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
      undefined,
      new Headers(),
      'overloaded_error',
    );
    const invalid = new APIError(
      undefined,
      { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
      undefined,
      new Headers(),
      'invalid_request_error',
    );
    const converted = [overloaded, invalid].map(
      (error) => toAnthropicProviderError(error, KEY) as ProviderError,
    );
    expect(converted.map((error) => [error.status, error.retryable, error.message])).toEqual([
      [undefined, true, 'Overloaded'],
      [undefined, false, 'bad'],
    ]);
  });

  it('turns connection failures into retryable network errors, classified by code', () => {
    const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
      code: 'ECONNREFUSED',
    });
    const error = toAnthropicProviderError(new APIConnectionError({ cause }), KEY);
    expect(error).toBeInstanceOf(ProviderNetworkError);
    expect([
      (error as ProviderNetworkError).network,
      (error as ProviderNetworkError).retryable,
    ]).toEqual(['connection_refused', true]);
  });

  it('leaves aborts and unrelated errors alone', () => {
    const abort = new APIUserAbortError();
    const bug = new TypeError('undefined is not a function');
    expect(toAnthropicProviderError(abort, KEY)).toBe(abort);
    expect(toAnthropicProviderError(bug, KEY)).toBe(bug);
  });
});
