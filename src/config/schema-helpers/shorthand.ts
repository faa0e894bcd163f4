import type { CallExpr, Expr, ObjectEntry, Span } from '../ast.ts';
import type { FieldSpec, TypeSpec, TypeReferenceName } from './field-spec.ts';
import { TYPE_REFERENCE_NAMES } from './field-spec.ts';
import type { FieldFlags } from './helper-options.ts';
import { readDescription, readFlags } from './helper-options.ts';
import type { SchemaReader } from './schema-reader.ts';
import { bareName, literalBool } from './schema-reader.ts';
import { didYouMean } from '../../base/suggest.ts';

/** The schema functions a field value may call. */
export const HELPER_NAMES = [
  'string',
  'number',
  'integer',
  'bool',
  'list',
  'map',
  'object',
  'file',
];

/** How each helper that needs parentheses is written, for "call it like this" messages. */
const CALL_EXAMPLES: Record<string, string> = {
  list: 'list(string, "Description")',
  map: 'map(string, "Description")',
  object: 'object({ name = string("Name") })',
  file: 'file("Description")',
};

const TYPE_EXAMPLE = 'a type reference such as string or object({...})';

/** Reads `{ name = helper(...), other = string, ... }` entries into fields, in declaration order. */
export function readFieldEntries(
  entries: readonly ObjectEntry[],
  reader: SchemaReader,
): FieldSpec[] {
  const fields: FieldSpec[] = [];
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.key)) {
      reader.error(entry.keySpan, `duplicate field "${entry.key}"`);
      continue;
    }
    names.add(entry.key);
    const field = readFieldValue(entry, reader);
    if (field !== undefined) fields.push(field);
  }
  return fields;
}

function readFieldValue(entry: ObjectEntry, reader: SchemaReader): FieldSpec | undefined {
  const expr = entry.value;
  const base = { name: entry.key, nameSpan: entry.keySpan, typeSpan: expr.span };
  if (expr.kind === 'call') {
    const parts = readHelperCall(expr, reader);
    return parts === undefined ? undefined : { ...base, ...parts };
  }
  const name = bareName(expr);
  if (name !== undefined) {
    const type = readTypeName(name, expr.span, reader);
    return type === undefined ? undefined : { ...base, type, required: false };
  }
  return reader.error(
    expr.span,
    `field "${entry.key}" must be a schema function such as string("Description") or a type such as string`,
  );
}

/** A bare type name (`string`, `any_primitive`), with a precise error for everything else. */
function readTypeName(name: string, span: Span, reader: SchemaReader): TypeSpec | undefined {
  if ((TYPE_REFERENCE_NAMES as readonly string[]).includes(name)) {
    return { kind: name as TypeReferenceName };
  }
  const example = CALL_EXAMPLES[name];
  if (example !== undefined) return reader.error(span, `${name} must be called, e.g. ${example}`);
  return reader.error(span, `unknown type "${name}"${didYouMean(name, TYPE_REFERENCE_NAMES)}`);
}

/**
 * A type reference: a bare type name, an inline `object({...})` taking only its properties,
 * or (verbose `items` only) the same name written as a string. `subject` names the position
 * in messages, e.g. `list(): first argument` or `items`.
 */
export function readTypeReference(
  expr: Expr,
  subject: string,
  reader: SchemaReader,
  allowString = false,
): TypeSpec | undefined {
  const name = bareName(expr) ?? (allowString ? stringLiteral(expr) : undefined);
  if (name !== undefined) return readTypeName(name, expr.span, reader);
  if (expr.kind === 'call' && expr.name === 'object') {
    const [properties, extra] = expr.args;
    if (extra !== undefined) {
      return reader.error(extra.span, 'object(): as a type reference it takes only its properties');
    }
    return readObjectType(expr, properties, reader);
  }
  return reader.error(expr.span, `${subject} must be ${TYPE_EXAMPLE}`);
}

function stringLiteral(expr: Expr): string | undefined {
  if (expr.kind !== 'template' || expr.parts.length !== 1) return undefined;
  const [part] = expr.parts;
  return part?.kind === 'text' ? part.value : undefined;
}

function readObjectType(
  call: CallExpr,
  properties: Expr | undefined,
  reader: SchemaReader,
): TypeSpec | undefined {
  if (properties?.kind !== 'object') {
    return reader.error(
      properties?.span ?? call.span,
      'object(): first argument must be an object of fields, e.g. { name = string("Name") }',
    );
  }
  return { kind: 'object', properties: readFieldEntries(properties.entries, reader) };
}

type FieldParts = Omit<FieldSpec, 'name' | 'nameSpan' | 'typeSpan'>;

/** Reads one helper call (`string("Name", true)`, `list(string, "Tags")`, ...). */
function readHelperCall(call: CallExpr, reader: SchemaReader): FieldParts | undefined {
  const helper = call.name;
  const args = call.args;
  switch (helper) {
    case 'string':
    case 'number':
    case 'integer':
    case 'bool':
    case 'file': {
      if (!checkArity(call, 1, 2, reader)) return undefined;
      return combine({ kind: helper }, args[0], args[1], 1, call, reader);
    }
    case 'list':
    case 'map': {
      if (!checkArity(call, 2, 3, reader)) return undefined;
      const inner = readTypeReference(args[0] as Expr, `${helper}(): first argument`, reader);
      const type = inner === undefined ? undefined : collectionType(helper, inner);
      return combine(type, args[1], args[2], 2, call, reader);
    }
    case 'object': {
      if (!checkArity(call, 1, 3, reader)) return undefined;
      const type = readObjectType(call, args[0], reader);
      const second = args[1];
      // object(props, true) and object(props, { ... }) skip the optional description.
      if (
        args.length === 2 &&
        second !== undefined &&
        (second.kind === 'object' || literalBool(second) !== undefined)
      ) {
        return combine(type, undefined, second, 1, call, reader);
      }
      return combine(type, second, args[2], 2, call, reader);
    }
  }
  if ((TYPE_REFERENCE_NAMES as readonly string[]).includes(helper)) {
    return reader.error(
      call.span,
      `${helper} is a type reference and takes no arguments: write ${helper}`,
    );
  }
  return reader.error(
    call.nameSpan,
    `unknown schema function "${helper}"${didYouMean(helper, HELPER_NAMES)}`,
  );
}

function collectionType(helper: 'list' | 'map', inner: TypeSpec): TypeSpec {
  return helper === 'list' ? { kind: 'list', items: inner } : { kind: 'map', values: inner };
}

/** Joins a type with its description and flags arguments; undefined when the type failed. */
function combine(
  type: TypeSpec | undefined,
  descriptionExpr: Expr | undefined,
  flagsExpr: Expr | undefined,
  flagsIndex: number,
  call: CallExpr,
  reader: SchemaReader,
): FieldParts | undefined {
  const description =
    descriptionExpr === undefined
      ? undefined
      : readDescription(descriptionExpr, call.name, flagsIndex - 1, reader);
  const written = flagsExpr && readFlags(flagsExpr, call.name, flagsIndex, reader);
  const flags: FieldFlags = written ?? { required: false };
  // A bad description or flag is already reported; the field is kept so its other rules
  // (file, protected, default) are still checked in the same run.
  if (type === undefined) return undefined;
  const parts: FieldParts = { type, ...flags };
  if (description !== undefined && description !== '') parts.description = description;
  return parts;
}

function checkArity(call: CallExpr, min: number, max: number, reader: SchemaReader): boolean {
  const count = call.args.length;
  if (count >= min && count <= max) return true;
  const expected = max - min === 1 ? `${min} or ${max}` : `${min} to ${max}`;
  const extra = call.args[max];
  reader.error(
    count > max && extra !== undefined ? extra.span : call.span,
    `${call.name}(): expects ${expected} arguments, got ${count}`,
  );
  return false;
}
