import { describe, expect, it } from 'vitest';
import {
  classifyNetworkError,
  isRetryableStatus,
  parseRetryAfter,
} from '../../src/models/http-retry.ts';

describe('isRetryableStatus', () => {
  it('retries exactly 408, 409, 429, 500, 502, 503, 504 and 529', () => {
    const statuses = [
      200, 400, 401, 403, 404, 408, 409, 422, 429, 500, 501, 502, 503, 504, 529, 599,
    ];
    expect(statuses.filter((status) => isRetryableStatus(status))).toEqual([
      408, 409, 429, 500, 502, 503, 504, 529,
    ]);
    expect(isRetryableStatus(undefined)).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads Retry-After seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(parseRetryAfter({ 'Retry-After': '1.5' }, now)).toBe(1500);
  });

  it('reads Retry-After as an HTTP date relative to now', () => {
    expect(
      parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:12 GMT' }), now),
    ).toBe(12000);
    expect(
      parseRetryAfter(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }), now),
    ).toBe(0);
  });

  it('prefers retry-after-ms', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now)).toBe(
      250,
    );
    expect(parseRetryAfter({ 'retry-after-ms': ['40'] }, now)).toBe(40);
  });

  it('ignores missing or unparsable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '-5', 'retry-after': '2' }), now)).toBe(
      2000,
    );
  });
});

function systemError(code: string): Error {
  return Object.assign(new Error('system failure'), { code });
}

describe('classifyNetworkError', () => {
  it('recognises resets, refusals and DNS failures by code', () => {
    expect(classifyNetworkError(systemError('ECONNRESET'))).toEqual({
      kind: 'connection_reset',
      code: 'ECONNRESET',
      retryable: true,
    });
    expect(classifyNetworkError(systemError('ECONNREFUSED'))).toEqual({
      kind: 'connection_refused',
      code: 'ECONNREFUSED',
      retryable: true,
    });
    expect(classifyNetworkError(systemError('ENOTFOUND'))).toEqual({
      kind: 'dns',
      code: 'ENOTFOUND',
      retryable: true,
    });
  });

  it('walks the cause chain and aggregate errors (fetch wraps the system error)', () => {
    const fetchFailure = new TypeError('fetch failed', {
      cause: new AggregateError([systemError('ECONNREFUSED')]),
    });
    expect(classifyNetworkError(fetchFailure)?.kind).toBe('connection_refused');
    const terminated = new TypeError('terminated', { cause: systemError('UND_ERR_SOCKET') });
    expect(classifyNetworkError(terminated)?.kind).toBe('connection_reset');
  });

  it('never decides from message text', () => {
    expect(classifyNetworkError(new Error('read ECONNRESET'))).toBeUndefined();
    expect(classifyNetworkError(systemError('EACCES'))).toBeUndefined();
    expect(classifyNetworkError('ECONNRESET')).toBeUndefined();
  });
});
