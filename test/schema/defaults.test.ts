import { describe, expect, it } from 'vitest';
import type { SchemaContext } from '../../src/config/schema-helpers/index.ts';
import { applyDefaults } from '../../src/schema/defaults.ts';
import { validate } from '../../src/schema/index.ts';
import { compileShorthandSchema } from '../../src/config/schema-helpers/index.ts';
import { located, parseAttribute } from '../config/schema-helpers/hcl.ts';

function schemaOf(body: string, context: SchemaContext = 'task_output'): Record<string, unknown> {
  const result = compileShorthandSchema(parseAttribute(`output = {\n${body}\n}`), context, []);
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema.jsonSchema;
}

const SCHEMA = schemaOf(`
  unit    = string("Unit", { default = "EUR" })
  limit   = integer("Limit", { default = 10 })
  dry_run = bool("Dry run", { default = false })
  tags    = list(string, "Tags", { default = ["new"] })
  name    = string("Name")
  rows    = list(object({
    label = string("Label", true)
    size  = integer("Size", { default = 1 })
  }), "Rows")
  by_key  = map(object({ weight = number("Weight", { default = 0.5 }) }), "By key")
  owner   = object({
    team = string("Team", { default = "core" })
    info = object({ level = integer("Level", { default = 2 }) }, "Info", { default = {} })
  }, "Owner")
`);

describe('applyDefaults', () => {
  it('fills missing top-level fields and leaves fields without defaults out', () => {
    expect(applyDefaults(SCHEMA, {})).toEqual({
      unit: 'EUR',
      limit: 10,
      dry_run: false,
      tags: ['new'],
    });
  });

  it('keeps given values, including false, zero and empty ones', () => {
    expect(applyDefaults(SCHEMA, { unit: '', limit: 0, dry_run: true, tags: [] })).toEqual({
      unit: '',
      limit: 0,
      dry_run: true,
      tags: [],
    });
  });

  it('does not replace an explicit null', () => {
    expect(applyDefaults(SCHEMA, { unit: null })).toMatchObject({ unit: null });
  });

  it('fills defaults inside every list item', () => {
    const value = applyDefaults(SCHEMA, { rows: [{ label: 'a' }, { label: 'b', size: 5 }] });
    expect((value as { rows: unknown }).rows).toEqual([
      { label: 'a', size: 1 },
      { label: 'b', size: 5 },
    ]);
  });

  it('fills defaults inside every map value', () => {
    const value = applyDefaults(SCHEMA, { by_key: { a: {}, b: { weight: 2 } } });
    expect((value as { by_key: unknown }).by_key).toEqual({ a: { weight: 0.5 }, b: { weight: 2 } });
  });

  it('fills nested object defaults, including those inside a defaulted object', () => {
    const value = applyDefaults(SCHEMA, { owner: {} });
    expect((value as { owner: unknown }).owner).toEqual({ team: 'core', info: { level: 2 } });
  });

  it('returns a copy and leaves the input and the schema untouched', () => {
    const input = { rows: [{ label: 'a' }] };
    const before = structuredClone(SCHEMA);
    const value = applyDefaults(SCHEMA, input) as { tags: string[] };
    value.tags.push('changed');
    expect(input).toEqual({ rows: [{ label: 'a' }] });
    expect(SCHEMA).toEqual(before);
  });

  it('fills an owned value in place, and a value without defaults to fill is left as it is', () => {
    const owned = { name: 'x' };
    const checked = validate(SCHEMA, owned, { applyDefaults: true, owned: true });
    expect(checked.value).toBe(owned);
    expect(owned).toEqual({ name: 'x', unit: 'EUR', limit: 10, dry_run: false, tags: ['new'] });
    const plain = { type: 'object', properties: { n: { type: 'integer' } } };
    const given = { n: 3 };
    expect(validate(plain, given, { applyDefaults: true, owned: true })).toEqual({
      value: given,
      problems: [],
    });
  });

  it('leaves values of the wrong shape for validation to report', () => {
    expect(applyDefaults(SCHEMA, 'text')).toBe('text');
    expect(applyDefaults(SCHEMA, { rows: 'x', owner: [1] })).toMatchObject({
      rows: 'x',
      owner: [1],
    });
  });

  it('makes a value with only defaulted fields valid', () => {
    const schema = schemaOf(
      'unit = string("Unit", { default = "EUR" })\nname = string("Name", true)',
    );
    expect(validate(schema, { name: 'x' }, { applyDefaults: true })).toEqual({
      value: { unit: 'EUR', name: 'x' },
      problems: [],
    });
  });
});

describe('applyDefaults: unusual names', () => {
  it('fills a property named "__proto__" as data', () => {
    const schema = {
      type: 'object',
      properties: JSON.parse('{"__proto__": {"default": 1}}') as object,
    };
    const value = applyDefaults(schema, {}) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__']);
  });
});
