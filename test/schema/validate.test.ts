import { describe, expect, it, vi } from 'vitest';
import { ajv } from '../../src/schema/ajv.ts';
import type { CompiledSchema } from '../../src/schema/index.ts';
import type { SchemaContext } from '../../src/config/schema-helpers/index.ts';
import { formatProblem, validateValue } from '../../src/schema/index.ts';
import { compileShorthandSchema } from '../../src/config/schema-helpers/index.ts';
import { located, parseAttribute } from '../config/schema-helpers/hcl.ts';

function compile(body: string, context: SchemaContext = 'task_output'): CompiledSchema {
  const result = compileShorthandSchema(parseAttribute(`output = {\n${body}\n}`), context, []);
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema;
}

const REPORT = compile(`
  top_product = string("The best seller", true)
  total       = number("Total", true)
  count       = integer("Count")
  ok          = bool("Ok")
  cell        = any_primitive
  items       = list(object({
    name = string("Name", true)
    tags = list(string, "Tags")
  }), "Items")
  prices      = map(number, "Prices")
`).jsonSchema;

describe('validateValue', () => {
  it('accepts a matching value', () => {
    expect(
      validateValue(REPORT, {
        top_product: 'tea',
        total: 3.5,
        count: 2,
        ok: true,
        cell: 'x',
        items: [{ name: 'a', tags: ['b'] }],
        prices: { tea: 1 },
      }),
    ).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    ['a missing required property', { total: 1 }, ["/: must have required property 'top_product'"]],
    ['a wrong scalar type', { top_product: 'x', total: '3' }, ['/total: must be number']],
    [
      'a fractional integer',
      { top_product: 'x', total: 1, count: 1.5 },
      ['/count: must be integer'],
    ],
    ['a non-boolean', { top_product: 'x', total: 1, ok: 'yes' }, ['/ok: must be boolean']],
    [
      'a non-primitive in any_primitive',
      { top_product: 'x', total: 1, cell: [] },
      ['/cell: must be string,number,integer,boolean'],
    ],
    [
      'an unknown property',
      { top_product: 'x', total: 1, colour: 'red' },
      ["/: must NOT have additional property 'colour'"],
    ],
    ['a non-object root', 'text', ['/: must be object']],
    ['a null root', null, ['/: must be object']],
    [
      'problems deep in a list of objects',
      {
        top_product: 'x',
        total: 1,
        items: [{ name: 'a' }, { tags: ['t', 2] }, { name: 3, extra: 1 }],
      },
      [
        "/items/1: must have required property 'name'",
        '/items/1/tags/1: must be string',
        "/items/2: must NOT have additional property 'extra'",
        '/items/2/name: must be string',
      ],
    ],
    [
      'a wrong map value',
      { top_product: 'x', total: 1, prices: { a: 1, b: 'two' } },
      ['/prices/b: must be number'],
    ],
    [
      'a list given as an object',
      { top_product: 'x', total: 1, items: {} },
      ['/items: must be array'],
    ],
    [
      'several problems at once',
      { total: 'x', count: 'y' },
      [
        "/: must have required property 'top_product'",
        '/total: must be number',
        '/count: must be integer',
      ],
    ],
  ])('reports %s', (_name, value, expected) => {
    expect(validateValue(REPORT, value).map(formatProblem)).toEqual(expected);
  });

  it('escapes property names in paths as JSON pointers', () => {
    const schema = { type: 'object', additionalProperties: { type: 'number' } };
    expect(validateValue(schema, { 'a/b': 'x' })).toEqual([
      { path: '/a~1b', message: 'must be number' },
    ]);
  });

  it('does not modify the value it validates', () => {
    const schema = compile('unit = string("Unit", { default = "EUR" })').jsonSchema;
    const value = {};
    expect(validateValue(schema, value)).toEqual([]);
    expect(value).toEqual({});
  });

  it('checks a given value of a defaulted field like any other', () => {
    const schema = compile('unit = string("Unit", { default = "EUR" })').jsonSchema;
    expect(validateValue(schema, { unit: 3 })).toEqual([
      { path: '/unit', message: 'must be string' },
    ]);
  });

  it('compiles a schema once, shared by structurally identical copies', () => {
    const schema = { type: 'object', properties: { once: { type: 'number' } } };
    const compile = vi.spyOn(ajv, 'compile');
    try {
      validateValue(schema, { once: 1 });
      validateValue(schema, { once: 'x' });
      expect(validateValue({ ...schema }, { once: 'y' })).toEqual([
        { path: '/once', message: 'must be number' },
      ]);
      expect(compile).toHaveBeenCalledTimes(1);
      validateValue({ type: 'object', properties: { once: { type: 'string' } } }, { once: 'z' });
      expect(compile).toHaveBeenCalledTimes(2);
    } finally {
      compile.mockRestore();
    }
  });

  it('gives the same answers when a schema object is reused', () => {
    expect(validateValue(REPORT, { total: 1 })).toEqual(validateValue(REPORT, { total: 1 }));
    expect(validateValue(REPORT, { top_product: 'x', total: 1 })).toEqual([]);
  });
});

describe('validateValue: file inputs', () => {
  const INPUTS = compile(
    'contract = file("Contract", true)\nnote = string',
    'mission_inputs',
  ).jsonSchema;

  it.each([
    ['a path', { path: 'docs/contract.pdf' }],
    ['an upload', { base64: 'JVBERi0=', filename: 'contract.pdf' }],
  ])('accepts %s', (_name, file) => {
    expect(validateValue(INPUTS, { contract: file })).toEqual([]);
  });

  it.each<[string, unknown, string[]]>([
    ['an empty object', {}, ['/contract: must be a file: { path } or { base64, filename }']],
    [
      'both shapes at once',
      { path: 'a', base64: 'b', filename: 'c' },
      ['/contract: must be a file: { path } or { base64, filename }'],
    ],
    [
      'an upload without a filename',
      { base64: 'b' },
      ['/contract: must be a file: { path } or { base64, filename }'],
    ],
    [
      'a bare string',
      'contract.pdf',
      ['/contract: must be a file: { path } or { base64, filename }'],
    ],
    [
      'a stray key',
      { path: 'a', size: 3 },
      ['/contract: must be a file: { path } or { base64, filename }'],
    ],
    ['a path of the wrong type', { path: 3 }, ['/contract/path: must be string']],
    ['an empty path', { path: '' }, ['/contract/path: must NOT have fewer than 1 characters']],
  ])('reports %s in one line', (_name, file, expected) => {
    expect(validateValue(INPUTS, { contract: file }).map(formatProblem)).toEqual(expected);
  });

  it('still reports a missing file input plainly', () => {
    expect(validateValue(INPUTS, { note: 'x' }).map(formatProblem)).toEqual([
      "/: must have required property 'contract'",
    ]);
  });
});

describe('formatProblem', () => {
  it('joins the path and the message', () => {
    expect(formatProblem({ path: '/total', message: 'must be number' })).toBe(
      '/total: must be number',
    );
    expect(formatProblem({ path: '/', message: 'must be object' })).toBe('/: must be object');
  });
});
