import { describe, expect, it } from 'vitest';
import { toGeminiSchema } from '../../../src/models/gemini/schema.ts';

describe('toGeminiSchema', () => {
  it.each([
    ['string', 'STRING'],
    ['number', 'NUMBER'],
    ['integer', 'INTEGER'],
    ['boolean', 'BOOLEAN'],
    ['array', 'ARRAY'],
    ['object', 'OBJECT'],
    ['null', 'NULL'],
  ])('upper-cases type %s', (type, expected) => {
    expect(toGeminiSchema({ type })).toEqual({ type: expected });
  });

  it('turns ["x", "null"] into nullable x', () => {
    expect(toGeminiSchema({ type: ['string', 'null'] })).toEqual({
      type: 'STRING',
      nullable: true,
    });
    expect(toGeminiSchema({ type: ['null', 'integer'] })).toEqual({
      type: 'INTEGER',
      nullable: true,
    });
  });

  it('turns several concrete types into anyOf', () => {
    expect(toGeminiSchema({ type: ['string', 'number', 'null'] })).toEqual({
      nullable: true,
      anyOf: [{ type: 'STRING' }, { type: 'NUMBER' }],
    });
  });

  it('turns oneOf into anyOf', () => {
    expect(
      toGeminiSchema({ oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] }),
    ).toEqual({
      anyOf: [{ type: 'STRING' }, { type: 'INTEGER', minimum: 0 }],
    });
  });

  it('turns a null member of anyOf into nullable, merging a single remaining member', () => {
    expect(
      toGeminiSchema({
        anyOf: [{ type: 'string', maxLength: 5 }, { type: 'null' }],
        description: 'nick',
      }),
    ).toEqual({
      type: 'STRING',
      maxLength: '5',
      nullable: true,
      description: 'nick',
    });
    expect(
      toGeminiSchema({ anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'null' }] }),
    ).toEqual({
      nullable: true,
      anyOf: [{ type: 'STRING' }, { type: 'BOOLEAN' }],
    });
  });

  it('stringifies enum values and types the schema STRING, as the API requires', () => {
    expect(toGeminiSchema({ type: 'integer', enum: [1, 2, 3] })).toEqual({
      type: 'STRING',
      enum: ['1', '2', '3'],
    });
    expect(toGeminiSchema({ enum: ['low', 'high', true] })).toEqual({
      type: 'STRING',
      enum: ['low', 'high', 'true'],
    });
  });

  it('turns a null enum value into nullable', () => {
    expect(toGeminiSchema({ type: ['string', 'null'], enum: ['a', 'b', null] })).toEqual({
      type: 'STRING',
      nullable: true,
      enum: ['a', 'b'],
    });
  });

  it('turns const into a one-value enum', () => {
    expect(toGeminiSchema({ const: 'fixed' })).toEqual({ type: 'STRING', enum: ['fixed'] });
    expect(toGeminiSchema({ type: 'integer', const: 7 })).toEqual({ type: 'STRING', enum: ['7'] });
  });

  it('drops keywords the dialect does not have', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'urn:tool',
        $defs: { x: { type: 'string' } },
        $comment: 'internal',
        type: 'object',
        additionalProperties: false,
        patternProperties: { '^x': { type: 'string' } },
        unevaluatedProperties: false,
        dependentRequired: { a: ['b'] },
        examples: [{ a: 1 }],
        allOf: [{ required: ['a'] }],
        not: { required: ['c'] },
        if: { required: ['a'] },
        then: { required: ['b'] },
        properties: {
          a: {
            type: 'number',
            exclusiveMinimum: 0,
            multipleOf: 2,
            readOnly: true,
            deprecated: true,
          },
          b: {
            type: 'array',
            uniqueItems: true,
            prefixItems: [{ type: 'string' }],
            contains: { type: 'string' },
          },
          c: { $ref: '#/$defs/x' },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      properties: { a: { type: 'NUMBER' }, b: { type: 'ARRAY' }, c: {} },
    });
  });

  it('keeps the keywords the dialect shares', () => {
    const schema = {
      type: 'number',
      title: 'Ratio',
      description: 'A ratio',
      default: 0.5,
      minimum: 0,
      maximum: 1,
    };
    expect(toGeminiSchema(schema)).toEqual({ ...schema, type: 'NUMBER' });
    expect(toGeminiSchema({ type: 'string', pattern: '^[a-z]+$' })).toEqual({
      type: 'STRING',
      pattern: '^[a-z]+$',
    });
    expect(toGeminiSchema({ type: 'object', propertyOrdering: ['b', 'a'] })).toEqual({
      type: 'OBJECT',
      propertyOrdering: ['b', 'a'],
    });
  });

  it('sends count limits as int64 strings', () => {
    expect(
      toGeminiSchema({
        type: 'array',
        minItems: 1,
        maxItems: 10,
        items: { type: 'string', minLength: 2, maxLength: 80 },
      }),
    ).toEqual({
      type: 'ARRAY',
      minItems: '1',
      maxItems: '10',
      items: { type: 'STRING', minLength: '2', maxLength: '80' },
    });
    expect(toGeminiSchema({ type: 'object', minProperties: 1, maxProperties: 4 })).toEqual({
      type: 'OBJECT',
      minProperties: '1',
      maxProperties: '4',
    });
  });

  it('keeps a format only where the API supports it', () => {
    expect(toGeminiSchema({ type: 'string', format: 'date-time' })).toEqual({
      type: 'STRING',
      format: 'date-time',
    });
    expect(toGeminiSchema({ type: 'string', format: 'uri' })).toEqual({ type: 'STRING' });
    expect(toGeminiSchema({ type: 'integer', format: 'int64' })).toEqual({
      type: 'INTEGER',
      format: 'int64',
    });
    expect(toGeminiSchema({ type: 'number', format: 'int32' })).toEqual({ type: 'NUMBER' });
  });

  it('converts properties, items and anyOf members recursively, keeping required', () => {
    expect(
      toGeminiSchema({
        type: 'object',
        required: ['tasks'],
        properties: {
          tasks: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['name'],
              properties: {
                name: { type: 'string' },
                priority: { oneOf: [{ type: 'integer', enum: [1, 2] }, { type: 'null' }] },
                tags: { type: ['array', 'null'], items: { const: 'x' } },
              },
            },
          },
        },
      }),
    ).toEqual({
      type: 'OBJECT',
      required: ['tasks'],
      properties: {
        tasks: {
          type: 'ARRAY',
          items: {
            type: 'OBJECT',
            required: ['name'],
            properties: {
              name: { type: 'STRING' },
              priority: { type: 'STRING', enum: ['1', '2'], nullable: true },
              tags: { type: 'ARRAY', nullable: true, items: { type: 'STRING', enum: ['x'] } },
            },
          },
        },
      },
    });
  });
});
