import { describe, expect, it } from 'vitest';
import type { SchemaContext } from '../../../src/config/schema-helpers/index.ts';
import {
  compileFieldBlocks,
  compileInputBlocks,
} from '../../../src/config/schema-helpers/index.ts';
import { located, parseBlock, parseBlocks } from './hcl.ts';

/** Compiles `output { <body> }`; the body starts on line 2. */
function compile(body: string, context: SchemaContext = 'task_output') {
  return compileFieldBlocks(parseBlock(`output {\n${body}\n}`), context, ['task "t"']);
}

function schemaOf(body: string, context: SchemaContext = 'task_output'): Record<string, unknown> {
  const result = compile(body, context);
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema.jsonSchema;
}

function fieldSchema(attributes: string, context: SchemaContext = 'task_output'): unknown {
  return (schemaOf(`field "f" {\n${attributes}\n}`, context).properties as Record<string, unknown>)
    .f;
}

function errorsOf(body: string, context: SchemaContext = 'task_output'): string[] {
  const result = compile(body, context);
  expect(result.schema).toBeUndefined();
  return located(result.diagnostics);
}

describe('compileFieldBlocks', () => {
  it.each([
    ['type = "string"', { type: 'string' }],
    ['type = string', { type: 'string' }],
    ['type = "number"\ndescription = "Total"', { type: 'number', description: 'Total' }],
    ['type = "integer"\ndefault = 3', { type: 'integer', default: 3 }],
    ['type = "bool"', { type: 'boolean' }],
    ['type = "boolean"', { type: 'boolean' }],
    ['type = "any"', {}],
    ['type = "any_primitive"', { type: ['string', 'number', 'integer', 'boolean'] }],
    ['type = "list"', { type: 'array', items: {} }],
    ['type = "array"\nitems = "string"', { type: 'array', items: { type: 'string' } }],
    ['type = "list"\nitems = number', { type: 'array', items: { type: 'number' } }],
    ['type = "map"\nitems = string', { type: 'object', additionalProperties: { type: 'string' } }],
    ['type = "map"', { type: 'object', additionalProperties: {} }],
    ['type = "object"', { type: 'object', properties: {}, additionalProperties: false }],
    [
      'type = "list"\nitems = object({ n = number("N", true) })',
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { n: { type: 'number', description: 'N' } },
          required: ['n'],
          additionalProperties: false,
        },
      },
    ],
    [
      'type = "object"\nfield "a" {\n  type = "string"\n  required = true\n}\nfield "b" {\n  type = "bool"\n}',
      {
        type: 'object',
        properties: { a: { type: 'string' }, b: { type: 'boolean' } },
        required: ['a'],
        additionalProperties: false,
      },
    ],
    [
      'type = "list"\nfield "a" {\n  type = "string"\n}',
      {
        type: 'array',
        items: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: false,
        },
      },
    ],
  ])('compiles %j', (attributes, expected) => {
    expect(fieldSchema(attributes)).toEqual(expected);
  });

  it('keeps declaration order and collects required fields', () => {
    const result = compile(
      'field "z" {\n  type = "string"\n  required = true\n}\nfield "a" {\n  type = "number"\n  description = "A"\n}\nfield "m" {\n  type = "bool"\n  required = true\n}',
    );
    expect(result.schema?.jsonSchema).toEqual({
      type: 'object',
      properties: {
        z: { type: 'string' },
        a: { type: 'number', description: 'A' },
        m: { type: 'boolean' },
      },
      required: ['z', 'm'],
      additionalProperties: false,
    });
    expect(
      result.schema?.fields.map((field) => `${field.name}:${field.type}:${field.required}`),
    ).toEqual(['z:string:true', 'a:number:false', 'm:bool:true']);
  });

  it('compiles an empty block to an empty closed object', () => {
    expect(schemaOf('')).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it.each<[string, string, string[], SchemaContext?]>([
    [
      'an unknown attribute',
      'field "a" {\n  type = "string"\n  descripton = "x"\n}',
      ['4:3-4:13 unknown attribute "descripton" in field "a" (did you mean "description"?)'],
    ],
    [
      'an unknown block',
      'feild "a" {\n  type = "string"\n}',
      ['2:1-2:6 unknown block "feild" in output (did you mean "field"?)'],
    ],
    [
      'an unknown nested block',
      'field "a" {\n  type = "object"\n  fields "b" {}\n}',
      ['4:3-4:9 unknown block "fields" in field "a" (did you mean "field"?)'],
    ],
    [
      'an attribute in the container',
      'name = "x"',
      ['2:1-2:5 unknown attribute "name" in output: declare fields as field "NAME" { ... } blocks'],
    ],
    [
      'a field without a label',
      'field {\n  type = "string"\n}',
      ['2:1-2:6 a field block needs exactly one label: field "NAME" { ... }'],
    ],
    [
      'a field with two labels',
      'field "a" "b" {\n  type = "string"\n}',
      ['2:1-2:6 a field block needs exactly one label: field "NAME" { ... }'],
    ],
    [
      'a duplicate field',
      'field "a" {\n  type = "string"\n}\nfield "a" {\n  type = "number"\n}',
      ['5:7-5:10 duplicate field "a"'],
    ],
    [
      'a missing type',
      'field "a" {\n  description = "A"\n}',
      ['2:7-2:10 field "a" needs a type, e.g. type = "string"'],
    ],
    [
      'an unknown type',
      'field "a" {\n  type = "strin"\n}',
      ['3:10-3:17 unknown type "strin" (did you mean "string"?)'],
    ],
    [
      'a type that is not a name',
      'field "a" {\n  type = 3\n}',
      ['3:10-3:11 type must be a type name such as "string"'],
    ],
    [
      'a non-string description',
      'field "a" {\n  type = "string"\n  description = true\n}',
      ['4:17-4:21 description must be a string'],
    ],
    [
      'a non-boolean required',
      'field "a" {\n  type = "string"\n  required = "yes"\n}',
      ['4:14-4:19 required must be true or false'],
    ],
    [
      'a bad items type',
      'field "a" {\n  type = "list"\n  items = "strng"\n}',
      ['4:11-4:18 unknown type "strng" (did you mean "string"?)'],
    ],
    [
      'items that are not a type',
      'field "a" {\n  type = "list"\n  items = 3\n}',
      ['4:11-4:12 items must be a type reference such as string or object({...})'],
    ],
    [
      'items on a scalar',
      'field "a" {\n  type = "string"\n  items = string\n}',
      ['4:3-4:8 items is only allowed on list and map fields'],
    ],
    [
      'items and nested fields together',
      'field "a" {\n  type = "list"\n  items = string\n  field "b" {\n    type = "string"\n  }\n}',
      ['4:3-4:8 field "a": use either items or nested field blocks, not both'],
    ],
    [
      'nested fields on a scalar',
      'field "a" {\n  type = "string"\n  field "b" {\n    type = "string"\n  }\n}',
      ['4:3-4:8 nested field blocks are only allowed in object, list and map fields'],
    ],
    [
      'a default of the wrong type',
      'field "a" {\n  type = "number"\n  default = "x"\n}',
      ["4:13-4:16 default does not match the field's type: /: must be number"],
    ],
    [
      'a non-constant default',
      'field "a" {\n  type = "number"\n  default = vars.n\n}',
      ['4:13-4:19 must be a constant value'],
    ],
    [
      'a default that is also required',
      'field "a" {\n  type = "number"\n  default = 1\n  required = true\n}',
      ['5:14-5:18 a field with a default cannot be required'],
    ],
    [
      'a file field in task output',
      'field "a" {\n  type = "file"\n}',
      ['3:10-3:16 file fields are only allowed in mission inputs'],
    ],
    [
      'protected in task output',
      'field "a" {\n  type = "string"\n  protected = true\n}',
      ['4:15-4:19 protected is only allowed in mission inputs'],
    ],
    [
      'a nested field error',
      'field "a" {\n  type = "object"\n  field "b" {\n    type = "number"\n    default = "x"\n  }\n}',
      ["6:15-6:18 default does not match the field's type: /: must be number"],
    ],
  ])('reports %s', (_name, body, expected, context) => {
    expect(errorsOf(body, context)).toEqual(expected);
  });
});

describe('compileInputBlocks', () => {
  function compileInputs(text: string) {
    return compileInputBlocks(parseBlocks(text), ['mission "m"']);
  }

  it('compiles inputs, required unless they have a default or say otherwise', () => {
    const result = compileInputs(
      [
        'input "region" {\n  type = "string"\n  description = "Region"\n}',
        'input "limit" {\n  type = "integer"\n  default = 10\n}',
        'input "note" {\n  type = "string"\n  required = false\n}',
        'input "key" {\n  type = "string"\n  protected = true\n}',
        'input "doc" {\n  type = "file"\n  description = "Contract"\n}',
        'input "rows" {\n  type = "list"\n  items = object({ a = string("A", true) })\n}',
      ].join('\n'),
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.schema?.fields).toEqual([
      {
        name: 'region',
        type: 'string',
        description: 'Region',
        required: true,
        protected: false,
        file: false,
      },
      {
        name: 'limit',
        type: 'integer',
        required: false,
        protected: false,
        file: false,
        default: 10,
      },
      { name: 'note', type: 'string', required: false, protected: false, file: false },
      { name: 'key', type: 'string', required: true, protected: true, file: false },
      {
        name: 'doc',
        type: 'file',
        description: 'Contract',
        required: true,
        protected: false,
        file: true,
      },
      { name: 'rows', type: 'list(object)', required: true, protected: false, file: false },
    ]);
    expect((result.schema?.jsonSchema as { required: string[] }).required).toEqual([
      'region',
      'key',
      'doc',
      'rows',
    ]);
  });

  it.each([
    [
      'an unknown attribute',
      'input "a" {\n  type = "string"\n  secret = true\n}',
      [
        '3:3-3:9 unknown attribute "secret" in input "a": use protected = true to keep its value secret',
      ],
    ],
    [
      'a misspelled attribute',
      'input "a" {\n  type = "string"\n  defautl = "x"\n}',
      ['3:3-3:10 unknown attribute "defautl" in input "a" (did you mean "default"?)'],
    ],
    [
      'a duplicate input',
      'input "a" {\n  type = "string"\n}\ninput "a" {\n  type = "string"\n}',
      ['4:7-4:10 duplicate field "a"'],
    ],
    ['a missing type', 'input "a" {\n}', ['1:7-1:10 input "a" needs a type, e.g. type = "string"']],
    [
      'an input without a label',
      'input {\n  type = "string"\n}',
      ['1:1-1:6 an input block needs exactly one label: input "NAME" { ... }'],
    ],
    [
      'a file with a default',
      'input "a" {\n  type = "file"\n  default = "x"\n}',
      ['3:13-3:16 a file field cannot have a default'],
    ],
    [
      'a protected file',
      'input "a" {\n  type = "file"\n  protected = true\n}',
      ['3:15-3:19 a file field cannot be protected'],
    ],
  ])('reports %s', (_name, text, expected) => {
    const result = compileInputs(text);
    expect(result.schema).toBeUndefined();
    expect(located(result.diagnostics)).toEqual(expected);
  });

  it('warns about an input attribute it does not know and ignores it, as the reference runtime does', () => {
    const result = compileInputs('input "a" {\n  type  = "string"\n  label = vars.nowhere\n}');
    expect(result.diagnostics.map((d) => [located([d])[0], d.severity, d.hint])).toEqual([
      [
        '3:3-3:8 unknown attribute "label" in input "a" is ignored by sortie',
        'warning',
        'inputs use type, description, required, default, items, protected and value',
      ],
    ]);
    expect(result.schema?.fields.map((field) => field.name)).toEqual(['a']);
  });

  it('warns that protected on a nested field is ignored', () => {
    const result = compileInputs(
      'input "a" {\n  type = "object"\n  field "b" {\n    type = "string"\n    protected = true\n  }\n}',
    );
    expect(result.schema?.fields.map((field) => field.protected)).toEqual([false]);
    expect(result.diagnostics.map((d) => [d.severity, ...located([d])])).toEqual([
      [
        'warning',
        '5:17-5:21 protected is ignored inside an object: only top-level mission inputs are protected',
      ],
    ]);
  });
});
