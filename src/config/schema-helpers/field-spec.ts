import type { Span } from '../ast.ts';

/**
 * The one intermediate form both schema syntaxes (shorthand helpers, verbose field blocks)
 * compile to. JSON Schema is generated from it by a single function, which is what makes the
 * two forms produce identical schemas.
 */

/** The four places schemas are written; some rules (file, protected) depend on it. */
export type SchemaContext = 'tool_inputs' | 'mission_inputs' | 'task_output' | 'dataset_schema';

/** Names usable as type references (first argument of list/map, bare field values, `items`). */
export const TYPE_REFERENCE_NAMES = [
  'string',
  'number',
  'integer',
  'bool',
  'any',
  'any_primitive',
] as const;

export type TypeReferenceName = (typeof TYPE_REFERENCE_NAMES)[number];

/** A field's type, recursively. */
export type TypeSpec =
  | { kind: TypeReferenceName | 'file' }
  | { kind: 'list'; items: TypeSpec }
  | { kind: 'map'; values: TypeSpec }
  | { kind: 'object'; properties: FieldSpec[] };

/** A value taken from the source together with where it was written. */
export interface Located<T> {
  value: T;
  span: Span;
}

/** One declared field, with the spans the rule checks point at. */
export interface FieldSpec {
  name: string;
  nameSpan: Span;
  type: TypeSpec;
  /** Where the type was given: the helper call, the bare reference or the `type` attribute. */
  typeSpan: Span;
  description?: string;
  required: boolean;
  /** Set when `required` was written explicitly (a `true` argument or attribute). */
  requiredSpan?: Span;
  protected?: Located<boolean>;
  default?: Located<unknown>;
}

/** The name written in a `(...)` type display: `list(string)`, `map(object)`. */
export function displayType(type: TypeSpec): string {
  switch (type.kind) {
    case 'list':
      return `list(${displayType(type.items)})`;
    case 'map':
      return `map(${displayType(type.values)})`;
    default:
      return type.kind;
  }
}
