import { describe, expect, it, vi } from 'vitest';
import { ajv } from '../../src/schema/ajv.ts';
import type { CompiledSchema } from '../../src/schema/index.ts';
import type { SchemaContext } from '../../src/config/schema-helpers/index.ts';
import { formatProblem, validate, validateItems } from '../../src/schema/index.ts';
import { compileShorthandSchema } from '../../src/config/schema-helpers/index.ts';
import { located, parseAttribute } from '../config/schema-helpers/hcl.ts';

function compile(body: string, context: SchemaContext = 'task_output'): CompiledSchema {
  const result = compileShorthandSchema(parseAttribute(`output = {\n${body}\n}`), context, []);
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema;
}

/** The problems of validating `value` (no defaults). */
const problemsOf = (schema: Record<string, unknown>, value: unknown) =>
  validate(schema, value).problems;

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

describe('validate', () => {
  it('accepts a matching value', () => {
    expect(
      problemsOf(REPORT, {
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
    expect(problemsOf(REPORT, value).map(formatProblem)).toEqual(expected);
  });

  it('escapes property names in paths as JSON pointers', () => {
    const schema = { type: 'object', additionalProperties: { type: 'number' } };
    expect(problemsOf(schema, { 'a/b': 'x' })).toEqual([
      { path: '/a~1b', message: 'must be number' },
    ]);
  });

  it('does not modify the value it validates, with or without defaults', () => {
    const schema = compile('unit = string("Unit", { default = "EUR" })').jsonSchema;
    const value = {};
    expect(validate(schema, value)).toEqual({ value, problems: [] });
    expect(validate(schema, value, { applyDefaults: true })).toEqual({
      value: { unit: 'EUR' },
      problems: [],
    });
    expect(value).toEqual({});
  });

  it('validates the filled copy when defaults are asked', () => {
    const schema = {
      type: 'object',
      properties: { unit: { type: 'string', default: 'EUR' } },
      required: ['unit'],
    };
    expect(validate(schema, {}).problems.map(formatProblem)).toEqual([
      "/: must have required property 'unit'",
    ]);
    expect(validate(schema, {}, { applyDefaults: true }).problems).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, unknown, string]>([
    ['too many items', { type: 'array', maxItems: 2 }, [1, 2, 3], '/: must have at most 2 items'],
    ['too few items', { type: 'array', minItems: 1 }, [], '/: must have at least 1 item'],
    [
      'a short string',
      { type: 'string', minLength: 3 },
      'ab',
      '/: must have at least 3 characters',
    ],
    ['a long string', { type: 'string', maxLength: 1 }, 'ab', '/: must have at most 1 character'],
    [
      'too many properties',
      { type: 'object', maxProperties: 1 },
      { a: 1, b: 2 },
      '/: must have at most 1 property',
    ],
    [
      'a value outside an enum',
      { enum: ['fast', 'slow'] },
      'warp',
      '/: must be equal to one of the allowed values: fast, slow',
    ],
    ['a value other than a constant', { const: 'v1' }, 'v2', '/: must be "v1"'],
    ['a number below its minimum', { type: 'number', minimum: 1 }, 0, '/: must be >= 1'],
  ])('words %s plainly', (_name, schema, value, expected) => {
    expect(validate(schema, value).problems.map(formatProblem)).toEqual([expected]);
  });

  it('checks a given value of a defaulted field like any other', () => {
    const schema = compile('unit = string("Unit", { default = "EUR" })').jsonSchema;
    expect(problemsOf(schema, { unit: 3 })).toEqual([{ path: '/unit', message: 'must be string' }]);
  });

  it('compiles a schema once, shared by structurally identical copies', () => {
    const schema = { type: 'object', properties: { once: { type: 'number' } } };
    const compile = vi.spyOn(ajv(), 'compile');
    try {
      problemsOf(schema, { once: 1 });
      problemsOf(schema, { once: 'x' });
      expect(problemsOf({ ...schema }, { once: 'y' })).toEqual([
        { path: '/once', message: 'must be number' },
      ]);
      expect(compile).toHaveBeenCalledTimes(1);
      problemsOf({ type: 'object', properties: { once: { type: 'string' } } }, { once: 5 });
      expect(compile).toHaveBeenCalledTimes(2);
    } finally {
      compile.mockRestore();
    }
  });

  it('gives the same answers when a schema object is reused', () => {
    expect(problemsOf(REPORT, { total: 1 })).toEqual(problemsOf(REPORT, { total: 1 }));
    expect(problemsOf(REPORT, { top_product: 'x', total: 1 })).toEqual([]);
  });
});

describe('validate: file inputs', () => {
  const INPUTS = compile(
    'contract = file("Contract", true)\nnote = string',
    'mission_inputs',
  ).jsonSchema;

  it.each([
    ['a path', { path: 'docs/contract.pdf' }],
    ['an upload', { base64: 'JVBERi0=', filename: 'contract.pdf' }],
  ])('accepts %s', (_name, file) => {
    expect(problemsOf(INPUTS, { contract: file })).toEqual([]);
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
    ['an empty path', { path: '' }, ['/contract/path: must have at least 1 character']],
  ])('reports %s in one line', (_name, file, expected) => {
    expect(problemsOf(INPUTS, { contract: file }).map(formatProblem)).toEqual(expected);
  });

  it('still reports a missing file input plainly', () => {
    expect(problemsOf(INPUTS, { note: 'x' }).map(formatProblem)).toEqual([
      "/: must have required property 'contract'",
    ]);
  });
});

describe('validateItems', () => {
  const ITEM = {
    type: 'object',
    properties: { name: { type: 'string' }, size: { type: 'integer', default: 1 } },
    required: ['name'],
  };

  it('checks each item, naming its index, and returns the filled items', () => {
    const items = [{ name: 'a' }, { name: 2 }, {}];
    const checked = validateItems(ITEM, items, { applyDefaults: true });
    expect(checked.values).toEqual([{ name: 'a', size: 1 }, { name: 2, size: 1 }, { size: 1 }]);
    expect(checked.invalidItems).toBe(2);
    expect(checked.problems.map(formatProblem)).toEqual([
      'item 1: /name: must be string',
      "item 2: /: must have required property 'name'",
    ]);
    expect(items).toEqual([{ name: 'a' }, { name: 2 }, {}]);
  });

  it('keeps at most limit problems but counts every invalid item', () => {
    const checked = validateItems(ITEM, [{}, {}, {}], { limit: 2 });
    expect(checked.invalidItems).toBe(3);
    expect(checked.problems.map((problem) => problem.item)).toEqual([0, 1]);
  });
});

describe('formatProblem', () => {
  it('joins the path and the message', () => {
    expect(formatProblem({ path: '/total', message: 'must be number' })).toBe(
      '/total: must be number',
    );
    expect(formatProblem({ path: '/', message: 'must be object' })).toBe('/: must be object');
  });

  it('names the list item a problem is in', () => {
    expect(formatProblem({ path: '/name', message: 'must be string', item: 3 })).toBe(
      'item 3: /name: must be string',
    );
  });
});
