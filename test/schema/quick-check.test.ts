import { describe, expect, it, vi } from 'vitest';
import { ajv } from '../../src/schema/ajv.ts';
import { validate } from '../../src/schema/index.ts';
import { certainlyValid } from '../../src/schema/quick-check.ts';

const ITEM = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'Name' },
    size: { type: 'integer', default: 3 },
    tags: { type: 'array', items: { type: 'string' } },
    prices: { type: 'object', additionalProperties: { type: 'number' } },
    cell: { type: ['string', 'number', 'integer', 'boolean'] },
    anything: {},
  },
  required: ['name'],
  additionalProperties: false,
};

/** What ajv itself says, compiled fresh: the authority the quick pass must never contradict. */
function ajvSays(schema: Record<string, unknown>, value: unknown): boolean {
  return ajv().compile(schema)(value);
}

describe('certainlyValid: the pass in front of ajv', () => {
  it.each([
    ['a full item', { name: 'a', size: 2, tags: ['x'], prices: { eur: 1.5 }, cell: true }],
    ['only the required field', { name: 'a' }],
    ['an explicit undefined optional field', { name: 'a', size: undefined }],
    ['any value under an empty schema', { name: 'a', anything: [{ deep: null }] }],
  ])('accepts %s, as ajv does', (_name, value) => {
    expect(certainlyValid(ITEM, value)).toBe(true);
    expect(ajvSays(ITEM, value)).toBe(true);
  });

  it.each([
    ['a missing required field', { size: 2 }, false],
    ['a required field given as undefined', { name: undefined }, false],
    ['an undeclared field', { name: 'a', other: 1 }, false],
    ['a fractional integer', { name: 'a', size: 1.5 }, false],
    ['a string among numbers', { name: 'a', prices: { eur: '1' } }, false],
    ['a list item of the wrong type', { name: 'a', tags: [1] }, false],
    ['NaN as an integer (ajv decides)', { name: 'a', size: Number.NaN }, false],
    ['a Date as an object (ajv decides)', new Date(0), false],
  ])('leaves %s to ajv', (_name, value, ajvVerdict) => {
    expect(certainlyValid(ITEM, value)).toBe(false);
    expect(ajvSays(ITEM, value)).toBe(ajvVerdict);
  });

  it('leaves keywords it does not know to ajv, even when the value would pass them', () => {
    const schema = { type: 'string', minLength: 1 };
    expect(certainlyValid(schema, 'long enough')).toBe(false);
    expect(ajvSays(schema, 'long enough')).toBe(true);
  });

  it('leaves a declared property that the value inherits (toString) to ajv', () => {
    const schema = { type: 'object', properties: { toString: { type: 'string' } } };
    expect(certainlyValid(schema, {})).toBe(false);
    expect(ajvSays(schema, {})).toBe(false);
    expect(certainlyValid(schema, Object.create(null))).toBe(true);
  });

  it('accepts a conforming value without compiling an ajv validator', () => {
    const compile = vi.spyOn(ajv(), 'compile');
    try {
      const schema = { type: 'object', properties: { unique: { type: 'number' } } };
      expect(validate(schema, { unique: 1 })).toEqual({ value: { unique: 1 }, problems: [] });
      expect(compile).not.toHaveBeenCalled();
      expect(validate(schema, { unique: 'x' }).problems).toEqual([
        { path: '/unique', message: 'must be number' },
      ]);
      expect(compile).toHaveBeenCalledTimes(1);
    } finally {
      compile.mockRestore();
    }
  });
});
