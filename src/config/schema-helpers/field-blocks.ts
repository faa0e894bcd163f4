import type { Attribute, Block, Expr } from '../ast.ts';
import type { FieldSpec, Located, TypeSpec } from './field-spec.ts';
import type { SchemaReader } from './schema-reader.ts';
import { bareName, constantString, literalBool } from './schema-reader.ts';
import { readTypeReference } from './shorthand.ts';
import { didYouMean } from '../../base/suggest.ts';

/** Verbose `type` values and the kind each means (`boolean` and `array` are aliases). */
const VERBOSE_TYPES: Record<string, TypeSpec['kind']> = {
  string: 'string',
  number: 'number',
  integer: 'integer',
  bool: 'bool',
  boolean: 'bool',
  list: 'list',
  array: 'list',
  map: 'map',
  object: 'object',
  any: 'any',
  any_primitive: 'any_primitive',
  file: 'file',
};

const FIELD_ATTRIBUTES = ['type', 'description', 'required', 'default', 'items', 'protected'];

/** How a block's `required` is decided when the attribute is absent. */
export type RequiredDefault = 'optional' | 'unless-default';

/** Reads `field "NAME" { ... }` blocks in declaration order; other block types are errors. */
export function readFieldBlocks(
  blocks: readonly Block[],
  where: string,
  reader: SchemaReader,
): FieldSpec[] {
  const fields: FieldSpec[] = [];
  const names = new Set<string>();
  for (const block of blocks) {
    if (block.type !== 'field') {
      reader.error(
        block.typeSpan,
        `unknown block "${block.type}" in ${where}${didYouMean(block.type, ['field'])}`,
      );
      continue;
    }
    const field = readNamedBlock(block, names, 'optional', reader);
    if (field !== undefined) fields.push(field);
  }
  return fields;
}

/**
 * Reads one `field "NAME"` or `input "NAME"` block, checking its single label and that the
 * name is new in `names`.
 */
export function readNamedBlock(
  block: Block,
  names: Set<string>,
  requiredDefault: RequiredDefault,
  reader: SchemaReader,
): FieldSpec | undefined {
  const [name] = block.labels;
  const [nameSpan] = block.labelSpans;
  if (block.labels.length !== 1 || name === undefined || nameSpan === undefined) {
    const article = /^[aeiou]/.test(block.type) ? 'an' : 'a';
    return reader.error(
      block.typeSpan,
      `${article} ${block.type} block needs exactly one label: ${block.type} "NAME" { ... }`,
    );
  }
  if (names.has(name)) return reader.error(nameSpan, `duplicate field "${name}"`);
  names.add(name);
  return readFieldBody(block, name, requiredDefault, reader);
}

interface FieldAttributes {
  type?: Located<TypeSpec['kind']>;
  description?: string;
  required?: Located<boolean>;
  protected?: Located<boolean>;
  default?: Located<unknown>;
  items?: { type: TypeSpec; attribute: Attribute };
}

function readFieldBody(
  block: Block,
  name: string,
  requiredDefault: RequiredDefault,
  reader: SchemaReader,
): FieldSpec | undefined {
  const where = `${block.type} "${name}"`;
  const attributes = readAttributes(block.body.attributes, where, reader, block.type === 'input');
  const nested = readFieldBlocks(block.body.blocks, where, reader);
  const nameSpan = block.labelSpans[0] ?? block.typeSpan;
  if (attributes.type === undefined) {
    const written = block.body.attributes.some((attribute) => attribute.name === 'type');
    if (!written) reader.error(nameSpan, `${where} needs a type, e.g. type = "string"`);
    return undefined;
  }
  const type = composeType(attributes, block, nested, where, reader);
  if (type === undefined) return undefined;
  const explicit = attributes.required;
  const field: FieldSpec = {
    name,
    nameSpan,
    type,
    typeSpan: attributes.type.span,
    required:
      explicit?.value ?? (requiredDefault === 'unless-default' && attributes.default === undefined),
  };
  if (explicit?.value === true) field.requiredSpan = explicit.span;
  if (attributes.description !== undefined && attributes.description !== '') {
    field.description = attributes.description;
  }
  if (attributes.protected !== undefined) field.protected = attributes.protected;
  if (attributes.default !== undefined) field.default = attributes.default;
  return field;
}

function composeType(
  attributes: FieldAttributes,
  block: Block,
  nested: FieldSpec[],
  where: string,
  reader: SchemaReader,
): TypeSpec | undefined {
  const kind = attributes.type?.value;
  const items = attributes.items;
  const firstNested = block.body.blocks.find((child) => child.type === 'field');
  if (kind === 'list' || kind === 'map') {
    if (items !== undefined && firstNested !== undefined) {
      return reader.error(
        items.attribute.nameSpan,
        `${where}: use either items or nested field blocks, not both`,
      );
    }
    // Nested field blocks on a list or map describe the object each element holds.
    const inner: TypeSpec =
      items?.type ??
      (firstNested !== undefined ? { kind: 'object', properties: nested } : { kind: 'any' });
    return kind === 'list' ? { kind: 'list', items: inner } : { kind: 'map', values: inner };
  }
  if (items !== undefined) {
    return reader.error(items.attribute.nameSpan, 'items is only allowed on list and map fields');
  }
  if (kind === 'object') return { kind: 'object', properties: nested };
  if (firstNested !== undefined) {
    return reader.error(
      firstNested.typeSpan,
      'nested field blocks are only allowed in object, list and map fields',
    );
  }
  return kind === undefined ? undefined : ({ kind } as TypeSpec);
}

/**
 * The attributes of a `field` or `input` block. An `input` block is lenient as the reference
 * runtime's is: an unknown attribute with no close known name is ignored with a warning (a
 * `field` block is strict there too).
 */
function readAttributes(
  list: readonly Attribute[],
  where: string,
  reader: SchemaReader,
  lenient: boolean,
): FieldAttributes {
  // A bad attribute is reported and left out; the others are still read and checked.
  const result: FieldAttributes = {};
  const fail = (expr: Expr, message: string): void => {
    reader.error(expr.span, message);
  };
  for (const attribute of list) {
    const value = attribute.value;
    switch (attribute.name) {
      case 'type': {
        const written = bareName(value) ?? constantString(value);
        const kind = written === undefined ? undefined : VERBOSE_TYPES[written];
        if (written === undefined) fail(value, 'type must be a type name such as "string"');
        else if (kind === undefined) {
          fail(
            value,
            `unknown type "${written}"${didYouMean(written, Object.keys(VERBOSE_TYPES))}`,
          );
        } else result.type = { value: kind, span: value.span };
        break;
      }
      case 'description': {
        const text = constantString(value);
        if (text === undefined) fail(value, 'description must be a string');
        else result.description = text;
        break;
      }
      case 'required':
      case 'protected': {
        const bool = literalBool(value);
        if (bool === undefined) fail(value, `${attribute.name} must be true or false`);
        else result[attribute.name] = { value: bool, span: value.span };
        break;
      }
      case 'default': {
        const constant = reader.constant(value);
        if (constant !== undefined && constant.value !== null)
          result.default = { value: constant.value, span: value.span };
        break;
      }
      case 'items': {
        const type = readTypeReference(value, 'items', reader, true);
        if (type !== undefined) result.items = { type, attribute };
        break;
      }
      default: {
        const suggestion = didYouMean(attribute.name, FIELD_ATTRIBUTES);
        if (lenient && attribute.name === 'secret') {
          // Ignoring it would leave a value the author meant to hide in plain view.
          reader.error(
            attribute.nameSpan,
            `unknown attribute "secret" in ${where}: use protected = true to keep its value secret`,
          );
        } else if (lenient && suggestion === '') {
          reader.warning(
            attribute.nameSpan,
            `unknown attribute "${attribute.name}" in ${where} is ignored by sortie`,
            `inputs use ${FIELD_ATTRIBUTES.join(', ')} and value`,
          );
        } else {
          reader.error(
            attribute.nameSpan,
            `unknown attribute "${attribute.name}" in ${where}${suggestion}`,
          );
        }
      }
    }
  }
  return result;
}
