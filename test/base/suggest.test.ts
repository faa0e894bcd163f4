import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance } from '../../src/base/suggest.ts';

describe('editDistance', () => {
  it.each([
    ['string', 'string', 0],
    ['strng', 'string', 1],
    ['defualt', 'default', 1],
    ['', 'abc', 3],
    ['kitten', 'sitting', 3],
  ])('%s → %s is %i', (a, b, expected) => {
    expect(editDistance(a, b)).toBe(expected);
  });
});

describe('didYouMean', () => {
  const names = ['string', 'number', 'integer', 'bool'];

  it('suggests the closest name', () => {
    expect(didYouMean('strng', names)).toBe(' (did you mean "string"?)');
    expect(didYouMean('Number', names)).toBe(' (did you mean "number"?)');
  });

  it('suggests nothing for names too far away or too short to judge', () => {
    expect(didYouMean('text', names)).toBe('');
    expect(didYouMean('bo', names)).toBe('');
  });
});
