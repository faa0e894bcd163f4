import { describe, expect, it } from 'vitest';
import { compilePattern, type SearchPattern } from '../../../src/tools/files/search-pattern.ts';

function compiled(source: string): SearchPattern {
  const pattern = compilePattern(source);
  if (typeof pattern === 'string') throw new Error(pattern);
  return pattern;
}

describe('compilePattern: patterns that backtrack exponentially in JavaScript', () => {
  it.each([
    ['(a|a)+$', `${'a'.repeat(26)}!`, false],
    ['(a|a)+$', 'a'.repeat(27), true],
    ['a*a*a*a*a*a*b', 'a'.repeat(3000), false],
    ['a*a*a*a*a*a*b', `${'a'.repeat(3000)}b`, true],
    ['(a+)+$', `${'a'.repeat(100_000)}!`, false],
    ['^(\\w+\\s?)*$', `${'word '.repeat(5000)}!`, false],
    ['(x+x+)+y', 'x'.repeat(10_000), false],
    ['((((a*)*)*)*)*c', `${'a'.repeat(10_000)}c`, true],
  ])('runs %s on a long line and answers correctly', (source, text, expected) => {
    expect(compiled(source).test(text)).toBe(expected);
  });
});

describe('compilePattern: matching', () => {
  it('finds a match anywhere in the text, case-sensitively unless (?i)', () => {
    expect(compiled('beta').test('some beta text')).toBe(true);
    expect(compiled('^beta').test('some beta text')).toBe(false);
    expect(compiled('BETA').test('some beta text')).toBe(false);
    expect(compiled('(?i)BETA').test('some beta text')).toBe(true);
  });

  it('takes the syntax shared with JavaScript: classes, counts, named groups, lazy quantifiers', () => {
    expect(compiled('fn\\s+\\w+\\(').test('export fn  parse(')).toBe(true);
    expect(compiled('(?<year>\\d{4})-(?<month>\\d{2})').test('on 2024-05-01')).toBe(true);
    expect(compiled('a.+?c').test('abbbc')).toBe(true);
    expect(compiled('\\.md$').test('readme.md')).toBe(true);
  });
});

describe('compilePattern: syntax RE2 does not have', () => {
  it.each([
    [
      '(ab)\\1',
      'unsupported pattern syntax: backreference "\\1"; RE2 cannot match a group again: write the repeated text out, e.g. (ab)ab instead of (ab)\\1, or match it loosely, e.g. (\\w+) \\w+',
    ],
    [
      '(?<q>a)\\k<q>',
      'unsupported pattern syntax: backreference "\\k"; RE2 cannot match a group again: write the repeated text out, e.g. (ab)ab instead of (ab)\\1, or match it loosely, e.g. (\\w+) \\w+',
    ],
    [
      'foo(?=bar)',
      'unsupported pattern syntax: lookahead "(?="; RE2 has no lookaround: make the following text part of the match, e.g. foo(?=bar) → foobar, or leave it out',
    ],
    [
      'foo(?!bar)',
      'unsupported pattern syntax: lookahead "(?!"; RE2 has no lookaround: make the following text part of the match, e.g. foo(?=bar) → foobar, or leave it out',
    ],
    [
      '(?<=\\$)\\d+',
      'unsupported pattern syntax: lookbehind "(?<="; RE2 has no lookaround: make the preceding text part of the match, e.g. (?<=\\$)\\d+ → \\$\\d+, or leave it out',
    ],
    [
      'x(?<!a)b',
      'unsupported pattern syntax: lookbehind "(?<!"; RE2 has no lookaround: make the preceding text part of the match, e.g. (?<=\\$)\\d+ → \\$\\d+, or leave it out',
    ],
    [
      '(?>a+)b',
      'unsupported pattern syntax: atomic group "(?>"; write (?:…) instead (RE2 never backtracks, so it is not needed)',
    ],
    [
      'a++b',
      'unsupported pattern syntax: possessive or doubled quantifier "++"; write one quantifier, e.g. a+ instead of a++ (RE2 never backtracks, so it is not needed)',
    ],
    [
      'caf\\u00e9',
      'unsupported pattern syntax: escape "\\u"; RE2 escapes are \\d \\s \\w \\b \\A \\z \\x{…} \\p{…}, their upper-case negations, \\t \\n \\r \\f \\v, and \\ before punctuation; write a code point as \\x{00e9}',
    ],
    [
      'a(?#note)',
      'unsupported pattern syntax: group "(?#"; RE2 groups are (…), (?:…), (?<name>…) and flags such as (?i) for case-insensitive matching',
    ],
    [
      '(a{100}){100}',
      'unsupported pattern syntax: repeat count "{100}"; RE2 repeats at most 1000 times, nested counts multiplied; use + or * for longer runs',
    ],
  ])('refuses %s, saying which syntax and how to rewrite it', (source, message) => {
    expect(compilePattern(source)).toBe(message);
  });

  it('reports an ordinary mistake as an invalid pattern', () => {
    expect(compilePattern('([a-')).toBe('invalid pattern: missing closing ]: `[a-`');
    expect(compilePattern('*')).toBe(
      'invalid pattern: missing argument to repetition operator: `*`',
    );
    expect(compilePattern('a{5,2}')).toBe('invalid pattern: invalid repeat count: `{5,2}`');
    expect(compilePattern('(?<>a)')).toBe('invalid pattern: invalid named capture: `(?<>`');
  });
});
