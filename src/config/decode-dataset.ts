import type { Block, Expr } from './ast.ts';
import { formatProblem, validate } from '../schema/index.ts';
import { constantValue } from './schema-helpers/index.ts';
import { blockName, checkBody, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import { referenceOf } from './references.ts';
import { readSchema } from './schema-bridge.ts';
import { didYouMean } from '../base/suggest.ts';
import type { ConfigSchema, ConfigSchemaField, DatasetConfig } from './config-types.ts';
import { readList, readString } from './values.ts';

/** Decodes a mission's `dataset "NAME"` block; inline items are validated against the schema now. */
export function decodeDataset(
  block: Block,
  context: DecodeContext,
  inputs: ConfigSchema | undefined,
): DatasetConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `dataset "${name}"`);
  const body = checkBody(
    block.body,
    {
      attributes: ['description', 'schema', 'items', 'bind_to'],
      blocks: ['schema'],
      lenient: { what: 'datasets' },
    },
    inner,
    headerSpan(block),
  );
  const dataset: DatasetConfig = { name, span: block.labelSpans[0] ?? block.span };
  const description = readString(body.attributes.get('description'), inner);
  if (description !== undefined) dataset.description = description;
  const schema = readSchema(body, 'schema', 'dataset_schema', inner);
  if (schema) dataset.schema = schema;
  const itemsAttribute = body.attributes.get('items');
  const bindAttribute = body.attributes.get('bind_to');
  if (itemsAttribute && bindAttribute) {
    errorAt(inner, bindAttribute.nameSpan, 'a dataset takes items or bind_to, not both');
  } else if (bindAttribute) {
    const bound = readBinding(bindAttribute.value, inputs, inner);
    if (bound) {
      dataset.bindTo = bound.input;
      if (!dataset.schema && bound.itemSchema) dataset.schema = bound.itemSchema;
    }
  }
  if (itemsAttribute && !bindAttribute) {
    const items = readList(itemsAttribute, inner) ?? [];
    const values: unknown[] = [];
    items.forEach((item, index) => {
      const constant = constantValue(item);
      if (!constant.ok) {
        inner.sink.add([
          {
            ...constant.diagnostic,
            message: `item ${index}: ${constant.diagnostic.message}`,
            path: [...inner.path],
          },
        ]);
        return;
      }
      if (dataset.schema === undefined) {
        values.push(constant.value);
        return;
      }
      const checked = validate(dataset.schema.jsonSchema, constant.value, { applyDefaults: true });
      for (const problem of checked.problems) {
        errorAt(inner, item.span, formatProblem({ ...problem, item: index }));
      }
      values.push(checked.value);
    });
    dataset.items = values;
  }
  return dataset;
}

/** `bind_to = inputs.X`: X must be a declared `list` input; its item schema becomes the dataset's. */
function readBinding(
  expr: Expr,
  inputs: ConfigSchema | undefined,
  context: DecodeContext,
): { input: string; itemSchema?: ConfigSchema } | undefined {
  const reference = referenceOf(expr);
  const [root, input, ...rest] = reference?.segments ?? [];
  if (reference === undefined || root !== 'inputs' || input === undefined || rest.length > 0) {
    errorAt(context, expr.span, 'bind_to expects a mission input reference like inputs.NAME');
    return undefined;
  }
  const field = inputs?.fields.find((candidate) => candidate.name === input);
  if (field === undefined) {
    const names = inputs?.fields.map((candidate) => candidate.name) ?? [];
    errorAt(context, expr.span, `unknown input "${input}" in bind_to${didYouMean(input, names)}`);
    return undefined;
  }
  const properties = (inputs?.jsonSchema.properties ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  const inputSchema = properties[input] ?? {};
  if (inputSchema.type !== 'array') {
    errorAt(context, expr.span, `bind_to needs a list input; input "${input}" is ${field.type}`);
    return undefined;
  }
  const items = (inputSchema.items ?? {}) as Record<string, unknown>;
  return { input, itemSchema: { jsonSchema: items, fields: fieldsOf(items) } };
}

/** Top-level fields of an object JSON Schema (for schemas taken from a bound input). */
function fieldsOf(jsonSchema: Record<string, unknown>): ConfigSchemaField[] {
  const properties = (jsonSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = (jsonSchema.required ?? []) as string[];
  return Object.entries(properties).map(([name, property]) => {
    const field: ConfigSchemaField = {
      name,
      type: typeof property.type === 'string' ? property.type : 'any',
      required: required.includes(name),
      protected: false,
      file: false,
    };
    if (typeof property.description === 'string') field.description = property.description;
    return field;
  });
}
