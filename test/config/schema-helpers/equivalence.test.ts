import { describe, expect, it } from 'vitest';
import type { CompiledSchema } from '../../../src/schema/index.ts';
import type { SchemaContext } from '../../../src/config/schema-helpers/index.ts';
import {
  compileFieldBlocks,
  compileInputBlocks,
  compileShorthandSchema,
} from '../../../src/config/schema-helpers/index.ts';
import { located, parseAttribute, parseBlock, parseBlocks } from './hcl.ts';

const SHORTHAND = `schema = {
  name    = string("Name", true)
  score   = number("Score", { default = 0.5 })
  count   = integer("Count", { required = true })
  active  = bool("Active")
  note    = string
  extra   = any
  cell    = any_primitive
  tags    = list(string, "Tags", { default = ["new"] })
  rows    = list(object({
    label = string("Label", true)
    hits  = list(integer, "Hits")
  }), "Rows", true)
  totals  = map(number, "Totals")
  owner   = object({
    email = string("Email", true)
    team  = object({ id = integer("Id", true) }, "Team")
  }, "Owner")
}`;

const VERBOSE = `schema {
  field "name" {
    type        = "string"
    description = "Name"
    required    = true
  }
  field "score" {
    type        = "number"
    description = "Score"
    default     = 0.5
  }
  field "count" {
    type        = "integer"
    description = "Count"
    required    = true
  }
  field "active" {
    type        = "boolean"
    description = "Active"
  }
  field "note" {
    type = string
  }
  field "extra" {
    type = "any"
  }
  field "cell" {
    type = "any_primitive"
  }
  field "tags" {
    type        = "list"
    items       = "string"
    description = "Tags"
    default     = ["new"]
  }
  field "rows" {
    type        = "array"
    description = "Rows"
    required    = true
    field "label" {
      type        = "string"
      description = "Label"
      required    = true
    }
    field "hits" {
      type        = "list"
      items       = integer
      description = "Hits"
    }
  }
  field "totals" {
    type        = "map"
    items       = number
    description = "Totals"
  }
  field "owner" {
    type        = "object"
    description = "Owner"
    field "email" {
      type        = "string"
      description = "Email"
      required    = true
    }
    field "team" {
      type        = "object"
      description = "Team"
      field "id" {
        type        = "integer"
        description = "Id"
        required    = true
      }
    }
  }
}`;

function ok(result: {
  schema?: CompiledSchema;
  diagnostics: Parameters<typeof located>[0];
}): CompiledSchema {
  if (result.schema === undefined) throw new Error(located(result.diagnostics).join('\n'));
  return result.schema;
}

describe('shorthand and verbose forms', () => {
  it.each<SchemaContext>(['tool_inputs', 'mission_inputs', 'task_output', 'dataset_schema'])(
    'compile to the same schema and fields in %s',
    (context) => {
      const shorthand = ok(compileShorthandSchema(parseAttribute(SHORTHAND), context, []));
      const verbose = ok(compileFieldBlocks(parseBlock(VERBOSE), context, []));
      expect(verbose).toEqual(shorthand);
      expect(Object.keys(shorthand.jsonSchema.properties as object)).toEqual([
        'name',
        'score',
        'count',
        'active',
        'note',
        'extra',
        'cell',
        'tags',
        'rows',
        'totals',
        'owner',
      ]);
      expect(shorthand.jsonSchema.required).toEqual(['name', 'count', 'rows']);
    },
  );

  it('agree on mission-only fields: files and protected inputs, in all three mission forms', () => {
    const shorthand = ok(
      compileShorthandSchema(
        parseAttribute(`inputs = {
  contract = file("Contract", true)
  key      = string("Key", { protected = true, required = true })
  region   = string("Region", { default = "eu" })
}`),
        'mission_inputs',
        [],
      ),
    );
    const verbose = ok(
      compileFieldBlocks(
        parseBlock(`inputs {
  field "contract" {
    type        = "file"
    description = "Contract"
    required    = true
  }
  field "key" {
    type        = "string"
    description = "Key"
    protected   = true
    required    = true
  }
  field "region" {
    type        = "string"
    description = "Region"
    default     = "eu"
  }
}`),
        'mission_inputs',
        [],
      ),
    );
    const inputBlocks = ok(
      compileInputBlocks(
        parseBlocks(`input "contract" {
  type        = "file"
  description = "Contract"
}
input "key" {
  type        = "string"
  description = "Key"
  protected   = true
}
input "region" {
  type        = "string"
  description = "Region"
  default     = "eu"
}`),
        [],
      ),
    );
    expect(verbose).toEqual(shorthand);
    expect(inputBlocks).toEqual(shorthand);
    expect(
      shorthand.fields.map((field) => [field.name, field.file, field.protected, field.required]),
    ).toEqual([
      ['contract', true, false, true],
      ['key', false, true, true],
      ['region', false, false, false],
    ]);
  });
});
