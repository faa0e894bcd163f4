import { FILE_MARKER } from './json-schema.ts';
import type { CompiledSchema, JsonSchema } from './json-schema.ts';

/** What a protected field's default is shown as: the value itself is never put in a prompt. */
const MASK = '••••';

/**
 * Renders a schema's fields as short lines for commander and agent prompts, nested fields of
 * objects (and of lists/maps of objects) indented under their parent:
 * `- top_product (string, required): The best seller`.
 */
export function describeSchemaForPrompt(schema: CompiledSchema): string {
  const lines: string[] = [];
  for (const field of schema.fields) {
    const notes = [field.type];
    if (field.required) notes.push('required');
    if (field.protected) notes.push('protected');
    if (field.default !== undefined)
      notes.push(`default ${field.protected ? MASK : JSON.stringify(field.default)}`);
    lines.push(line(0, field.name, notes, field.description));
    const properties = schema.jsonSchema.properties as Record<string, JsonSchema> | undefined;
    describeNested(properties?.[field.name], 1, lines);
  }
  return lines.join('\n');
}

function describeNested(schema: JsonSchema | undefined, depth: number, lines: string[]): void {
  const object = innermostObject(schema);
  if (object === undefined) return;
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  for (const [name, property] of Object.entries(properties)) {
    const notes = [typeName(property)];
    if (required.has(name)) notes.push('required');
    if (property.default !== undefined) notes.push(`default ${JSON.stringify(property.default)}`);
    lines.push(line(depth, name, notes, property.description as string | undefined));
    describeNested(property, depth + 1, lines);
  }
}

function line(
  depth: number,
  name: string,
  notes: string[],
  description: string | undefined,
): string {
  const head = `${'  '.repeat(depth)}- ${name} (${notes.join(', ')})`;
  return description === undefined ? head : `${head}: ${description}`;
}

/** The declared object a field holds, looking through lists and maps; files are opaque. */
function innermostObject(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema === undefined || schema[FILE_MARKER] === true) return undefined;
  if (schema.type === 'array') return innermostObject(schema.items as JsonSchema | undefined);
  if (schema.type !== 'object') return undefined;
  if (schema.properties !== undefined) return schema;
  return innermostObject(schema.additionalProperties as JsonSchema | undefined);
}

/** The helper-style type name of a compiled subschema: `string`, `list(object)`, `map(any)`. */
function typeName(schema: JsonSchema): string {
  if (schema[FILE_MARKER] === true) return 'file';
  switch (schema.type) {
    case 'boolean':
      return 'bool';
    case 'array':
      return `list(${typeName((schema.items ?? {}) as JsonSchema)})`;
    case 'object':
      return schema.properties !== undefined
        ? 'object'
        : `map(${typeName((schema.additionalProperties ?? {}) as JsonSchema)})`;
    case undefined:
      return 'any';
    default:
      return Array.isArray(schema.type) ? 'any_primitive' : String(schema.type);
  }
}
