import { describe, expect, it } from 'vitest';
import { createRedactor, redactDeep } from '../../src/base/redact.ts';

describe('createRedactor', () => {
  it('replaces every occurrence of each secret, longest first', () => {
    const redact = createRedactor(['sk-abc', 'sk-abcdef', 'token123']);
    expect(redact('key sk-abcdef and sk-abc, token123 twice token123')).toBe(
      'key •••• and ••••, •••• twice ••••',
    );
  });

  it('ignores values shorter than 4 characters and regex characters are literal', () => {
    const redact = createRedactor(['abc', '', 'a.b*c']);
    expect(redact('abc a.b*c axbbc')).toBe('abc •••• axbbc');
  });

  it('redacts strings and keys inside JSON values without changing the input', () => {
    const redact = createRedactor(['hunter22']);
    const value = { hunter22: ['x hunter22', 1, null, { deep: 'hunter22' }] };
    expect(redactDeep(value, redact)).toEqual({ '••••': ['x ••••', 1, null, { deep: '••••' }] });
    expect(value.hunter22[0]).toBe('x hunter22');
  });
});
