import { ApiError } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../../src/base/errors.ts';
import { googleErrorMessage, toGeminiProviderError } from '../../../src/models/gemini/errors.ts';
import { ProviderNetworkError } from '../../../src/models/provider-errors.ts';

const KEY = 'AIzaSySecretKey0123456789';

function apiError(status: number, message: string): ApiError {
  return new ApiError({
    status,
    message: JSON.stringify({ error: { code: status, message, status: 'X' } }),
  });
}

describe('googleErrorMessage', () => {
  it('reads error.message out of a Google error body', () => {
    expect(
      googleErrorMessage(
        '{"error":{"code":400,"message":"API key not valid.","status":"INVALID_ARGUMENT"}}',
      ),
    ).toBe('API key not valid.');
  });

  it('reads it out of an error sent inside a stream', () => {
    expect(
      googleErrorMessage(
        'got status: UNAVAILABLE. {"error":{"code":503,"message":"overloaded","status":"UNAVAILABLE"}}',
      ),
    ).toBe('overloaded');
  });

  it('falls back to the text when there is no body', () => {
    expect(googleErrorMessage('Bad Gateway')).toBe('Bad Gateway');
  });
});

describe('toGeminiProviderError', () => {
  it.each([
    [408, true],
    [429, true],
    [500, true],
    [503, true],
    [504, true],
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [422, false],
  ])('decides retryability of a %i from the status', (status, retryable) => {
    const error = toGeminiProviderError(apiError(status, 'nope'), KEY) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect([error.status, error.retryable, error.provider, error.message]).toEqual([
      status,
      retryable,
      'gemini',
      'nope',
    ]);
  });

  it('takes the wait from the captured response headers', () => {
    const headers = new Headers({ 'retry-after': '12' });
    expect(
      (toGeminiProviderError(apiError(429, 'quota'), KEY, headers) as ProviderError).retryAfterMs,
    ).toBe(12_000);
  });

  it('redacts the API key from the provider message', () => {
    const error = toGeminiProviderError(
      apiError(400, `API key ${KEY} not valid`),
      KEY,
    ) as ProviderError;
    expect(error.message).toBe('API key [redacted] not valid');
  });

  it('turns fetch failures into retryable network errors, classified by code', () => {
    const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const error = toGeminiProviderError(new TypeError('fetch failed', { cause }), KEY);
    expect(error).toBeInstanceOf(ProviderNetworkError);
    expect([
      (error as ProviderNetworkError).network,
      (error as ProviderNetworkError).retryable,
    ]).toEqual(['connection_reset', true]);
  });

  it('leaves unrelated errors alone', () => {
    const bug = new RangeError('bad');
    expect(toGeminiProviderError(bug, KEY)).toBe(bug);
  });
});
