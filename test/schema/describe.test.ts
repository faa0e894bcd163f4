import { describe, expect, it } from 'vitest';
import type { CompiledSchema } from '../../src/schema/index.ts';
import type { SchemaContext } from '../../src/config/schema-helpers/index.ts';
import { describeSchemaForPrompt } from '../../src/schema/index.ts';
import { compileShorthandSchema } from '../../src/config/schema-helpers/index.ts';
import { located, parseAttribute } from '../config/schema-helpers/hcl.ts';

function compile(body: string, context: SchemaContext = 'task_output'): CompiledSchema {
  const result = compileShorthandSchema(parseAttribute(`output = {\n${body}\n}`), context, []);
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema;
}

describe('describeSchemaForPrompt', () => {
  it('renders one short line per field, in declaration order', () => {
    const schema = compile(`
  top_product = string("The best seller", true)
  total       = number("Total revenue")
  count       = integer("Units", { default = 3 })
  tags        = list(string, "Tags")
  prices      = map(number, "Prices by shop")
  flag        = bool
  cell        = any_primitive
  extra       = any
`);
    expect(describeSchemaForPrompt(schema)).toBe(
      [
        '- top_product (string, required): The best seller',
        '- total (number): Total revenue',
        '- count (integer, default 3): Units',
        '- tags (list(string)): Tags',
        '- prices (map(number)): Prices by shop',
        '- flag (bool)',
        '- cell (any_primitive)',
        '- extra (any)',
      ].join('\n'),
    );
  });

  it('indents the fields of objects, including objects inside lists and maps', () => {
    const schema = compile(`
  rows = list(object({
    label = string("Label", true)
    meta  = object({ level = integer("Level", { default = 1 }) }, "Meta")
  }), "Rows", true)
  by_key = map(object({ weight = number("Weight") }), "By key")
`);
    expect(describeSchemaForPrompt(schema)).toBe(
      [
        '- rows (list(object), required): Rows',
        '  - label (string, required): Label',
        '  - meta (object): Meta',
        '    - level (integer, default 1): Level',
        '- by_key (map(object)): By key',
        '  - weight (number): Weight',
      ].join('\n'),
    );
  });

  it('shows files as files and never prints a protected default', () => {
    const schema = compile(
      'contract = file("The contract", true)\ntoken = string("Token", { protected = true, default = "s3cret" })',
      'mission_inputs',
    );
    const text = describeSchemaForPrompt(schema);
    expect(text).toBe(
      [
        '- contract (file, required): The contract',
        '- token (string, protected, default ••••): Token',
      ].join('\n'),
    );
    expect(text).not.toContain('s3cret');
  });

  it('renders an empty schema as an empty string', () => {
    expect(describeSchemaForPrompt(compile(''))).toBe('');
  });
});
