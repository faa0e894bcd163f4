import { describe, expect, it } from 'vitest';
import { constantValue } from '../../../src/config/schema-helpers/constant-value.ts';
import { located, parseAttribute } from './hcl.ts';

function valueOf(text: string): unknown {
  const result = constantValue(parseAttribute(`value = ${text}`));
  if (!result.ok) throw new Error(result.diagnostic.message);
  return result.value;
}

function failureOf(text: string): string[] {
  const result = constantValue(parseAttribute(text));
  if (result.ok) throw new Error('expected a failure');
  return located([result.diagnostic]);
}

describe('constantValue', () => {
  it.each([
    ['a string', '"text"', 'text'],
    ['an empty string', '""', ''],
    ['an escaped interpolation', '"cost: $${x}"', 'cost: ${x}'],
    ['a whole number', '42', 42],
    ['a decimal number', '1.5', 1.5],
    ['true', 'true', true],
    ['false', 'false', false],
    ['null', 'null', null],
    ['a tuple', '["a", 1, true]', ['a', 1, true]],
    ['an empty tuple', '[]', []],
    ['an object', '{ a = 1, "b c" = "x" }', { a: 1, 'b c': 'x' }],
    ['nested collections', '{ list = [{ x = [1, 2] }] }', { list: [{ x: [1, 2] }] }],
    ['a heredoc', '<<-EOT\n    line one\n    line two\n  EOT', 'line one\nline two\n'],
  ])('reads %s', (_name, text, expected) => {
    expect(valueOf(text)).toEqual(expected);
  });

  it('keeps a "__proto__" key as data', () => {
    const value = valueOf('{ "__proto__" = 1 }') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(value['__proto__']).toBe(1);
  });

  it('rejects a reference at its span', () => {
    expect(failureOf('value = vars.region')).toEqual(['1:9-1:20 must be a constant value']);
  });

  it('rejects a function call at its span', () => {
    expect(failureOf('value = string("x")')).toEqual(['1:9-1:20 must be a constant value']);
  });

  it('rejects the interpolation inside a template, not the whole string', () => {
    expect(failureOf('value = "a ${vars.b} c"')).toEqual(['1:14-1:20 must be a constant value']);
  });

  it('rejects the first non-constant tuple item', () => {
    expect(failureOf('value = [1, item.x, vars.y]')).toEqual([
      '1:13-1:19 must be a constant value',
    ]);
  });

  it('rejects a non-constant object value', () => {
    expect(failureOf('value = { a = 1, b = tasks.x }')).toEqual([
      '1:22-1:29 must be a constant value',
    ]);
  });

  it('leaves the block path empty for the caller to fill', () => {
    const result = constantValue(parseAttribute('value = vars.x'));
    expect(result.ok ? [] : result.diagnostic.path).toEqual([]);
    expect(result.ok ? undefined : result.diagnostic.severity).toBe('error');
  });
});
