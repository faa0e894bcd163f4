import { describe, expect, it } from 'vitest';
import { redactKey } from '../../src/models/redact-key.ts';

describe('redactKey', () => {
  const key = 'sk-proj-abcdefghijklmnop1234';

  it('replaces every occurrence of the key', () => {
    expect(redactKey(`bad key ${key}; again ${key}`, key)).toBe(
      'bad key [redacted]; again [redacted]',
    );
  });

  it('replaces masked echoes of the key that providers print', () => {
    expect(redactKey('Incorrect API key provided: sk-proj-********************1234.', key)).toBe(
      'Incorrect API key provided: [redacted].',
    );
  });

  it('leaves text alone without a key', () => {
    expect(redactKey('nothing secret', undefined)).toBe('nothing secret');
    expect(redactKey('sk-proj-abc', key)).toBe('sk-proj-abc');
  });
});
