import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  compareCodePoints,
  deepEqual,
  numericString,
  readPath,
  valuesEqual,
} from '../../src/runtime/query-values.ts';

describe('query value rules', () => {
  it('compares by code point, not UTF-16 code unit', () => {
    // U+FFFF is one code unit above the surrogate U+D83D that starts U+1F600 in UTF-16.
    expect('\uFFFF' > '😀').toBe(true);
    expect(compareCodePoints('\uFFFF', '😀')).toBe(-1);
    expect(compareCodePoints('abc', 'abd')).toBe(-1);
    expect(compareCodePoints('ab', 'abc')).toBe(-1);
    expect(compareCodePoints('b', 'B')).toBe(1);
    expect(compareCodePoints('same', 'same')).toBe(0);
  });

  it('reads numeric strings in decimal notation only', () => {
    expect(numericString('42')).toBe(42);
    expect(numericString(' -3.5 ')).toBe(-3.5);
    expect(numericString('1e3')).toBe(1000);
    expect(numericString('.5')).toBe(0.5);
    expect(numericString('0x10')).toBeUndefined();
    expect(numericString('')).toBeUndefined();
    expect(numericString('12abc')).toBeUndefined();
    expect(numericString('Infinity')).toBeUndefined();
  });

  it('follows dot paths with numeric segments only into arrays', () => {
    const value = { a: [{ b: 1 }], '0': 'zero' };
    expect(readPath(value, 'a.0.b')).toBe(1);
    expect(readPath(value, '0')).toBe('zero');
    expect(readPath(value, 'a.1.b')).toBeUndefined();
    expect(readPath(value, 'a.first')).toBeUndefined();
    expect(readPath(value, 'toString')).toBeUndefined();
    expect(readPath(null, 'a')).toBeUndefined();
  });

  it('treats deeply equal values as equal whatever their key order', () => {
    expect(canonicalJson({ b: [1, { d: 2, c: 1 }], a: null })).toBe(
      '{"a":null,"b":[1,{"c":1,"d":2}]}',
    );
    expect(deepEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual(1, '1')).toBe(false);
    expect(valuesEqual(1, '1')).toBe(true);
    expect(valuesEqual('1', '1.0')).toBe(false);
    expect(valuesEqual(null, null)).toBe(true);
  });
});
