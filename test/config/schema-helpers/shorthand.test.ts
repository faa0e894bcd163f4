import { describe, expect, it } from 'vitest';
import type { SchemaContext } from '../../../src/config/schema-helpers/index.ts';
import { compileShorthandSchema } from '../../../src/config/schema-helpers/index.ts';
import { located, parseAttribute } from './hcl.ts';

/** Compiles `output = { <body> }`; the body starts on line 2. */
function compile(body: string, context: SchemaContext = 'task_output') {
  return compileShorthandSchema(parseAttribute(`output = {\n${body}\n}`), context, ['task "t"']);
}

function schemaOf(body: string, context: SchemaContext = 'task_output'): Record<string, unknown> {
  const result = compile(body, context);
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema.jsonSchema;
}

/** The schema of the one field `f` in `body`. */
function fieldSchema(value: string, context: SchemaContext = 'task_output'): unknown {
  return (schemaOf(`f = ${value}`, context).properties as Record<string, unknown>).f;
}

function errorsOf(body: string, context: SchemaContext = 'task_output'): string[] {
  const result = compile(body, context);
  expect(result.schema).toBeUndefined();
  return located(result.diagnostics);
}

const PRIMITIVES = { type: ['string', 'number', 'integer', 'boolean'] };

describe('compileShorthandSchema: helpers', () => {
  it.each([
    ['string("Name")', { type: 'string', description: 'Name' }],
    ['number("Total")', { type: 'number', description: 'Total' }],
    ['integer("Count")', { type: 'integer', description: 'Count' }],
    ['bool("Done")', { type: 'boolean', description: 'Done' }],
    ['string("Name", false)', { type: 'string', description: 'Name' }],
    [
      'string("Unit", { default = "EUR" })',
      { type: 'string', description: 'Unit', default: 'EUR' },
    ],
    ['number("Rate", { default = 1.5 })', { type: 'number', description: 'Rate', default: 1.5 }],
    ['integer("Max", { default = 10 })', { type: 'integer', description: 'Max', default: 10 }],
    [
      'bool("Dry run", { default = false })',
      { type: 'boolean', description: 'Dry run', default: false },
    ],
    ['string("Unit", { default = null })', { type: 'string', description: 'Unit' }],
    ['string("")', { type: 'string' }],
    ['list(string, "Tags")', { type: 'array', items: { type: 'string' }, description: 'Tags' }],
    ['list(number, "Scores")', { type: 'array', items: { type: 'number' }, description: 'Scores' }],
    ['list(integer, "Ids")', { type: 'array', items: { type: 'integer' }, description: 'Ids' }],
    ['list(bool, "Flags")', { type: 'array', items: { type: 'boolean' }, description: 'Flags' }],
    ['list(any, "Anything")', { type: 'array', items: {}, description: 'Anything' }],
    ['list(any_primitive, "Cells")', { type: 'array', items: PRIMITIVES, description: 'Cells' }],
    [
      'list(string, "Tags", { default = ["a"] })',
      { type: 'array', items: { type: 'string' }, description: 'Tags', default: ['a'] },
    ],
    [
      'map(string, "Labels")',
      { type: 'object', additionalProperties: { type: 'string' }, description: 'Labels' },
    ],
    ['map(any, "Extra")', { type: 'object', additionalProperties: {}, description: 'Extra' }],
    [
      'map(number, "Prices", { default = { a = 1 } })',
      {
        type: 'object',
        additionalProperties: { type: 'number' },
        description: 'Prices',
        default: { a: 1 },
      },
    ],
    [
      'object({ a = string("A") })',
      {
        type: 'object',
        properties: { a: { type: 'string', description: 'A' } },
        additionalProperties: false,
      },
    ],
    [
      'object({ a = string("A") }, "Thing")',
      {
        type: 'object',
        properties: { a: { type: 'string', description: 'A' } },
        additionalProperties: false,
        description: 'Thing',
      },
    ],
    [
      'object({}, "Empty")',
      { type: 'object', properties: {}, additionalProperties: false, description: 'Empty' },
    ],
  ])('compiles %s', (value, expected) => {
    expect(fieldSchema(value)).toEqual(expected);
  });

  it.each([
    ['string', { type: 'string' }],
    ['number', { type: 'number' }],
    ['integer', { type: 'integer' }],
    ['bool', { type: 'boolean' }],
    ['any', {}],
    ['any_primitive', PRIMITIVES],
  ])('accepts the bare type reference %s as an optional field', (value, expected) => {
    expect(schemaOf(`f = ${value}`)).toEqual({
      type: 'object',
      properties: { f: expected },
      additionalProperties: false,
    });
  });

  it('lists required fields in declaration order, whichever way they are marked', () => {
    const schema = schemaOf(
      [
        'z = string("Z", true)',
        'a = number("A")',
        'm = list(string, "M", true)',
        'b = map(any, "B", { required = true })',
        'o = object({ x = string }, true)',
        'p = object({ x = string }, "P", { required = true })',
      ].join('\n'),
    );
    expect(Object.keys(schema.properties as object)).toEqual(['z', 'a', 'm', 'b', 'o', 'p']);
    expect(schema.required).toEqual(['z', 'm', 'b', 'o', 'p']);
  });

  it('omits required when no field is required', () => {
    expect(schemaOf('a = string("A")')).toEqual({
      type: 'object',
      properties: { a: { type: 'string', description: 'A' } },
      additionalProperties: false,
    });
  });

  it('compiles an empty object of fields', () => {
    expect(schemaOf('')).toEqual({ type: 'object', properties: {}, additionalProperties: false });
  });

  it('nests a list of objects holding lists', () => {
    const schema = fieldSchema(
      'list(object({\n  name = string("Name", true)\n  tags = list(object({ label = string("Label", true) }), "Tags")\n}), "Rows", true)',
    );
    expect(schema).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'Name' },
          tags: {
            type: 'array',
            items: {
              type: 'object',
              properties: { label: { type: 'string', description: 'Label' } },
              required: ['label'],
              additionalProperties: false,
            },
            description: 'Tags',
          },
        },
        required: ['name'],
        additionalProperties: false,
      },
      description: 'Rows',
    });
  });

  it('compiles a map of objects', () => {
    expect(fieldSchema('map(object({ n = number("N", true) }), "By key")')).toEqual({
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { n: { type: 'number', description: 'N' } },
        required: ['n'],
        additionalProperties: false,
      },
      description: 'By key',
    });
  });

  it('describes the fields in declaration order', () => {
    const result = compile(
      [
        'top = string("The best seller", true)',
        'count = integer("How many", { default = 3 })',
        'tags = list(string, "Tags")',
        'by_key = map(number, "Totals")',
        'row = object({ a = string })',
        'anything = any',
      ].join('\n'),
    );
    expect(result.schema?.fields).toEqual([
      {
        name: 'top',
        type: 'string',
        description: 'The best seller',
        required: true,
        protected: false,
        file: false,
      },
      {
        name: 'count',
        type: 'integer',
        description: 'How many',
        required: false,
        protected: false,
        file: false,
        default: 3,
      },
      {
        name: 'tags',
        type: 'list(string)',
        description: 'Tags',
        required: false,
        protected: false,
        file: false,
      },
      {
        name: 'by_key',
        type: 'map(number)',
        description: 'Totals',
        required: false,
        protected: false,
        file: false,
      },
      { name: 'row', type: 'object', required: false, protected: false, file: false },
      { name: 'anything', type: 'any', required: false, protected: false, file: false },
    ]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe('compileShorthandSchema: mission inputs', () => {
  it('compiles file() to a file object and marks the field', () => {
    const result = compile('contract = file("The contract", true)', 'mission_inputs');
    expect(result.schema?.jsonSchema).toEqual({
      type: 'object',
      properties: {
        contract: {
          type: 'object',
          'x-sortie-file': true,
          properties: {
            path: { type: 'string', minLength: 1 },
            base64: { type: 'string' },
            filename: { type: 'string', minLength: 1 },
          },
          additionalProperties: false,
          oneOf: [{ required: ['path'] }, { required: ['base64', 'filename'] }],
          description: 'The contract',
        },
      },
      required: ['contract'],
      additionalProperties: false,
    });
    expect(result.schema?.fields).toEqual([
      {
        name: 'contract',
        type: 'file',
        description: 'The contract',
        required: true,
        protected: false,
        file: true,
      },
    ]);
  });

  it('marks protected inputs', () => {
    const result = compile(
      'key = string("API key", { protected = true, required = true })',
      'mission_inputs',
    );
    expect(result.schema?.fields).toEqual([
      {
        name: 'key',
        type: 'string',
        description: 'API key',
        required: true,
        protected: true,
        file: false,
      },
    ]);
    expect(result.schema?.jsonSchema).toEqual({
      type: 'object',
      properties: { key: { type: 'string', description: 'API key' } },
      required: ['key'],
      additionalProperties: false,
    });
  });

  it('accepts protected = false anywhere in mission inputs', () => {
    expect(
      compile('key = string("K", { protected = false })', 'mission_inputs').diagnostics,
    ).toEqual([]);
  });
});

describe('compileShorthandSchema: errors', () => {
  it.each<[string, string, string[], SchemaContext?]>([
    [
      'an unknown helper',
      'a = strng("A")',
      ['2:5-2:10 unknown schema function "strng" (did you mean "string"?)'],
    ],
    [
      'an unknown helper with no close name',
      'a = text("A")',
      ['2:5-2:9 unknown schema function "text"'],
    ],
    [
      'an unknown bare type',
      'a = strng',
      ['2:5-2:10 unknown type "strng" (did you mean "string"?)'],
    ],
    [
      'a bare helper that needs a call',
      'a = list',
      ['2:5-2:9 list must be called, e.g. list(string, "Description")'],
    ],
    [
      'a bare object',
      'a = object',
      ['2:5-2:11 object must be called, e.g. object({ name = string("Name") })'],
    ],
    [
      'a type reference called like a helper',
      'a = any("A")',
      ['2:5-2:13 any is a type reference and takes no arguments: write any'],
    ],
    [
      'a string instead of a helper',
      'a = "string"',
      [
        '2:5-2:13 field "a" must be a schema function such as string("Description") or a type such as string',
      ],
    ],
    [
      'a reference instead of a helper',
      'a = vars.x',
      [
        '2:5-2:11 field "a" must be a schema function such as string("Description") or a type such as string',
      ],
    ],
    [
      'a missing description',
      'a = string()',
      ['2:5-2:13 string(): expects 1 or 2 arguments, got 0'],
    ],
    [
      'too many arguments to a scalar',
      'a = number("A", true, 3)',
      ['2:23-2:24 number(): expects 1 or 2 arguments, got 3'],
    ],
    [
      'too few arguments to list',
      'a = list(string)',
      ['2:5-2:17 list(): expects 2 or 3 arguments, got 1'],
    ],
    [
      'too many arguments to map',
      'a = map(string, "A", true, 1)',
      ['2:28-2:29 map(): expects 2 or 3 arguments, got 4'],
    ],
    [
      'no arguments to object',
      'a = object()',
      ['2:5-2:13 object(): expects 1 to 3 arguments, got 0'],
    ],
    [
      'a non-string description',
      'a = string(1)',
      ['2:12-2:13 string(): first argument must be a description string'],
    ],
    [
      'an interpolated description',
      'a = string("${vars.x}")',
      ['2:12-2:23 string(): first argument must be a description string'],
    ],
    [
      'a list description that is not a string',
      'a = list(string, true)',
      ['2:18-2:22 list(): second argument must be a description string'],
    ],
    [
      'an object description that is not a string',
      'a = object({}, 3)',
      ['2:16-2:17 object(): second argument must be a description string'],
    ],
    [
      'a bad required argument',
      'a = string("A", "yes")',
      ['2:17-2:22 string(): second argument must be true, false or an options object'],
    ],
    [
      'a bad required argument to list',
      'a = list(string, "A", 1)',
      ['2:23-2:24 list(): third argument must be true, false or an options object'],
    ],
    [
      'a list of a non-type',
      'a = list("string", "A")',
      ['2:10-2:18 list(): first argument must be a type reference such as string or object({...})'],
    ],
    [
      'a map of a helper call',
      'a = map(string("x"), "A")',
      ['2:9-2:20 map(): first argument must be a type reference such as string or object({...})'],
    ],
    [
      'a list of an unknown type',
      'a = list(integr, "A")',
      ['2:10-2:16 unknown type "integr" (did you mean "integer"?)'],
    ],
    [
      'a described inline object type',
      'a = list(object({}, "x"), "A")',
      ['2:21-2:24 object(): as a type reference it takes only its properties'],
    ],
    [
      'object properties that are not an object',
      'a = object("x")',
      [
        '2:12-2:15 object(): first argument must be an object of fields, e.g. { name = string("Name") }',
      ],
    ],
    [
      'an unknown option',
      'a = string("A", { defualt = "x" })',
      ['2:19-2:26 string(): unknown option "defualt" (did you mean "default"?)'],
    ],
    [
      'a duplicate option',
      'a = string("A", { required = true, required = false })',
      ['2:36-2:44 string(): duplicate option "required"'],
    ],
    [
      'a non-boolean required option',
      'a = string("A", { required = "yes" })',
      ['2:30-2:35 string(): option "required" must be true or false'],
    ],
    [
      'a non-boolean protected option',
      'a = string("A", { protected = 1 })',
      ['2:31-2:32 string(): option "protected" must be true or false'],
      'mission_inputs',
    ],
    [
      'a non-constant default',
      'a = string("A", { default = vars.x })',
      ['2:29-2:35 must be a constant value'],
    ],
    [
      'a default of the wrong type',
      'a = number("A", { default = "ten" })',
      ["2:29-2:34 default does not match the field's type: /: must be number"],
    ],
    [
      'a fractional integer default',
      'a = integer("A", { default = 1.5 })',
      ["2:30-2:33 default does not match the field's type: /: must be integer"],
    ],
    [
      'a bad list default item',
      'a = list(string, "A", { default = ["x", 2] })',
      ["2:35-2:43 default does not match the field's type: /1: must be string"],
    ],
    [
      'a default missing a required property',
      'a = object({ n = number("N", true) }, "A", { default = {} })',
      ["2:56-2:58 default does not match the field's type: /: must have required property 'n'"],
    ],
    [
      'a default that is also required',
      'a = string("A", { default = "x", required = true })',
      ['2:45-2:49 a field with a default cannot be required'],
    ],
    ['a duplicate field', 'a = string\na = number', ['3:1-3:2 duplicate field "a"']],
    [
      'file() in task output',
      'a = file("A")',
      ['2:5-2:14 file fields are only allowed in mission inputs'],
    ],
    [
      'file() in tool inputs',
      'a = file("A")',
      ['2:5-2:14 file fields are only allowed in mission inputs'],
      'tool_inputs',
    ],
    [
      'file() in a dataset schema',
      'a = file("A")',
      ['2:5-2:14 file fields are only allowed in mission inputs'],
      'dataset_schema',
    ],
    [
      'file() nested in an object',
      'a = object({ f = file("F") })',
      ['2:18-2:27 file fields must be top-level mission inputs'],
      'mission_inputs',
    ],
    [
      'file() used as a list type',
      'a = list(file, "A")',
      ['2:10-2:14 file must be called, e.g. file("Description")'],
      'mission_inputs',
    ],
    [
      'file() with a default',
      'a = file("A", { default = "x.pdf" })',
      ['2:27-2:34 a file field cannot have a default'],
      'mission_inputs',
    ],
    [
      'a protected file()',
      'a = file("A", { protected = true })',
      ['2:29-2:33 a file field cannot be protected'],
      'mission_inputs',
    ],
    [
      'protected in tool inputs',
      'a = string("A", { protected = true })',
      ['2:31-2:35 protected is only allowed in mission inputs'],
      'tool_inputs',
    ],
    [
      'protected in a dataset schema',
      'a = string("A", { protected = true })',
      ['2:31-2:35 protected is only allowed in mission inputs'],
      'dataset_schema',
    ],
  ])('reports %s', (_name, body, expected, context) => {
    expect(errorsOf(body, context)).toEqual(expected);
  });

  it('warns that protected inside an object is ignored, and compiles the schema', () => {
    const result = compile(
      'a = object({ k = string("K", { protected = true }), j = string("J", { protected = false }) })',
      'mission_inputs',
    );
    expect(result.diagnostics.map((d) => [d.severity, ...located([d]), d.hint])).toEqual([
      [
        'warning',
        '2:44-2:48 protected is ignored inside an object: only top-level mission inputs are protected',
        'make the value a top-level mission input to hide it',
      ],
    ]);
    expect(result.schema?.fields.map((field) => [field.name, field.protected])).toEqual([
      ['a', false],
    ]);
  });

  it('reports every problem in one run, with the block path', () => {
    const result = compile(
      'a = strng("A")\nb = number("B", { default = "x", protectd = true })\nc = list(nope, 1)',
    );
    expect(located(result.diagnostics)).toEqual([
      '2:5-2:10 unknown schema function "strng" (did you mean "string"?)',
      '3:34-3:42 number(): unknown option "protectd" (did you mean "protected"?)',
      '4:10-4:14 unknown type "nope"',
      '4:16-4:17 list(): second argument must be a description string',
      "3:29-3:32 default does not match the field's type: /: must be number",
    ]);
    expect(result.diagnostics.every((diagnostic) => diagnostic.path.join() === 'task "t"')).toBe(
      true,
    );
    expect(result.diagnostics.every((diagnostic) => diagnostic.file === 'test.hcl')).toBe(true);
  });

  it('rejects an attribute that is not an object, naming the attribute of each context', () => {
    const expr = parseAttribute('inputs = [string]');
    expect(located(compileShorthandSchema(expr, 'tool_inputs', []).diagnostics)).toEqual([
      '1:10-1:18 inputs must be an object of fields, e.g. { name = string("Name", true) }',
    ]);
    expect(compileShorthandSchema(expr, 'task_output', []).diagnostics[0]?.message).toMatch(
      /^output must/,
    );
    expect(compileShorthandSchema(expr, 'dataset_schema', []).diagnostics[0]?.message).toMatch(
      /^schema must/,
    );
  });
});

describe('compileShorthandSchema: unusual names', () => {
  it('keeps a field quoted as "__proto__" as a plain property', () => {
    const schema = schemaOf('"__proto__" = string("P", { default = "x" })');
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.keys(properties)).toEqual(['__proto__']);
  });
});
