import { describe, expect, it } from 'vitest';
import { compilePattern } from '../../../src/tools/files/file-tool-common.ts';
import { unsafePatternReason } from '../../../src/tools/files/pattern-safety.ts';

const NESTED =
  'a repeated group contains a repetition (like (a+)+), which can take exponential time; rewrite the pattern without nesting repetitions';

describe('unsafePatternReason', () => {
  it.each([
    '(a+)+$',
    '(a*)*b',
    '(x+x+)+y',
    '^(\\w+\\s?)*$',
    '((ab)*c)+',
    '(?:a|b+){2,}',
    '(a{2,})*',
    '((a+))+',
  ])('refuses the nested repetition in %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toBe(NESTED);
  });

  it.each([
    'TODO',
    '^import .* from',
    '(foo|bar)+',
    '[(a+)+]',
    '\\(a+\\)+',
    '(a+)?b',
    '(ab){1}',
    'fn\\s+\\w+\\(',
    '(?<year>\\d{4})-(?<month>\\d{2})',
    'a+b*c{2,3}',
  ])('accepts %s', (pattern) => {
    expect(unsafePatternReason(pattern)).toBeUndefined();
  });

  it('refuses backreferences, numbered and named', () => {
    const reason = 'backreferences are not supported in search patterns';
    expect(unsafePatternReason('(a)\\1')).toBe(reason);
    expect(unsafePatternReason('(?<q>a)\\k<q>')).toBe(reason);
  });
});

describe('compilePattern', () => {
  it('gives the model the reason, so it can rewrite the pattern', () => {
    expect(compilePattern('(a+)+$')).toBe(`unsafe pattern: ${NESTED}`);
    expect(compilePattern('(')).toMatch(/^invalid pattern: /);
    expect(compilePattern('ab+')).toEqual(/ab+/);
  });
});
