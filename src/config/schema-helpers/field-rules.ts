import type { FieldSpec, SchemaContext, TypeSpec } from './field-spec.ts';
import { typeToJsonSchema } from './to-json-schema.ts';
import type { SchemaReader } from './schema-reader.ts';
import { formatProblem, validate } from '../../schema/index.ts';

/**
 * The rules that hold for both schema forms, checked on the compiled fields: where `file` and
 * `protected` may appear, that a default is not also required, and that a default matches its
 * own field's type.
 */
export function checkFieldRules(
  fields: readonly FieldSpec[],
  context: SchemaContext,
  reader: SchemaReader,
  depth = 0,
): void {
  for (const field of fields) {
    checkFile(field, context, reader, depth);
    checkProtected(field, context, reader, depth);
    checkDefault(field, reader);
    for (const nested of nestedFields(field.type))
      checkFieldRules(nested, context, reader, depth + 1);
  }
}

function nestedFields(type: TypeSpec): FieldSpec[][] {
  switch (type.kind) {
    case 'object':
      return [type.properties];
    case 'list':
      return nestedFields(type.items);
    case 'map':
      return nestedFields(type.values);
    default:
      return [];
  }
}

function checkFile(
  field: FieldSpec,
  context: SchemaContext,
  reader: SchemaReader,
  depth: number,
): void {
  if (field.type.kind !== 'file') return;
  if (context !== 'mission_inputs') {
    reader.error(field.typeSpan, 'file fields are only allowed in mission inputs');
  } else if (depth > 0) {
    reader.error(field.typeSpan, 'file fields must be top-level mission inputs');
  }
  if (field.default !== undefined)
    reader.error(field.default.span, 'a file field cannot have a default');
  if (field.protected?.value === true)
    reader.error(field.protected.span, 'a file field cannot be protected');
}

function checkProtected(
  field: FieldSpec,
  context: SchemaContext,
  reader: SchemaReader,
  depth: number,
): void {
  const flag = field.protected;
  if (flag === undefined) return;
  if (context !== 'mission_inputs') {
    reader.error(flag.span, 'protected is only allowed in mission inputs');
  } else if (depth > 0 && flag.value) {
    // The reference runtime accepts it and never acts on it; sortie says so.
    reader.warning(
      flag.span,
      'protected is ignored inside an object: only top-level mission inputs are protected',
      'make the value a top-level mission input to hide it',
    );
  }
}

function checkDefault(field: FieldSpec, reader: SchemaReader): void {
  const fallback = field.default;
  if (fallback === undefined || field.type.kind === 'file') return;
  if (field.required && field.requiredSpan !== undefined) {
    reader.error(field.requiredSpan, 'a field with a default cannot be required');
  }
  const { problems } = validate(typeToJsonSchema(field.type), fallback.value);
  if (problems.length === 0) return;
  const detail = problems.map(formatProblem).join('; ');
  reader.error(fallback.span, `default does not match the field's type: ${detail}`);
}
