import { describe, expect, it } from 'vitest';

import { reasonOf } from '../../src/base/reason.ts';

describe('reasonOf', () => {
  it("gives an Error's message without its name or stack", () => {
    expect(reasonOf(new TypeError('bad input'))).toBe('bad input');
  });

  it('gives the text of a thrown value that is not an Error', () => {
    expect(reasonOf('plain words')).toBe('plain words');
    expect(reasonOf(42)).toBe('42');
    expect(reasonOf(undefined)).toBe('undefined');
  });
});
