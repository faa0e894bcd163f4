import type { Expr, ObjectExpr, Span } from '../ast.ts';
import type { Located } from './field-spec.ts';
import type { SchemaReader } from './schema-reader.ts';
import { constantString, literalBool } from './schema-reader.ts';
import { didYouMean } from '../../base/suggest.ts';

/** What the optional last argument of a helper sets: `true`/`false` or `{ default, protected, required }`. */
export interface FieldFlags {
  required: boolean;
  requiredSpan?: Span;
  protected?: Located<boolean>;
  default?: Located<unknown>;
}

const OPTION_NAMES = ['default', 'protected', 'required'];
const ORDINALS = ['first', 'second', 'third', 'fourth'];

/** `first`, `second`, ... for argument positions in messages. */
export function ordinal(index: number): string {
  return ORDINALS[index] ?? `#${index + 1}`;
}

/** Reads a description argument; reports `helper(): Nth argument must be a description string`. */
export function readDescription(
  expr: Expr,
  helper: string,
  index: number,
  reader: SchemaReader,
): string | undefined {
  const text = constantString(expr);
  if (text === undefined) {
    return reader.error(
      expr.span,
      `${helper}(): ${ordinal(index)} argument must be a description string`,
    );
  }
  return text;
}

/** Reads the `req_or_opts` argument: a boolean, or an options object. */
export function readFlags(
  expr: Expr,
  helper: string,
  index: number,
  reader: SchemaReader,
): FieldFlags | undefined {
  const required = literalBool(expr);
  if (required !== undefined) {
    return required ? { required, requiredSpan: expr.span } : { required };
  }
  if (expr.kind === 'object') return readOptions(expr, helper, reader);
  return reader.error(
    expr.span,
    `${helper}(): ${ordinal(index)} argument must be true, false or an options object`,
  );
}

/** Reads every option it can: a bad entry is reported and skipped, the others still count. */
function readOptions(expr: ObjectExpr, helper: string, reader: SchemaReader): FieldFlags {
  const flags: FieldFlags = { required: false };
  const seen = new Set<string>();
  for (const entry of expr.entries) {
    if (seen.has(entry.key)) {
      reader.error(entry.keySpan, `${helper}(): duplicate option "${entry.key}"`);
      continue;
    }
    seen.add(entry.key);
    const value = entry.value;
    switch (entry.key) {
      case 'default': {
        const constant = reader.constant(value);
        // `default = null` is HCL's way of saying "no default".
        if (constant !== undefined && constant.value !== null)
          flags.default = { value: constant.value, span: value.span };
        break;
      }
      case 'protected':
      case 'required': {
        const bool = literalBool(value);
        if (bool === undefined) {
          reader.error(value.span, `${helper}(): option "${entry.key}" must be true or false`);
        } else if (entry.key === 'protected') {
          flags.protected = { value: bool, span: value.span };
        } else {
          flags.required = bool;
          if (bool) flags.requiredSpan = value.span;
        }
        break;
      }
      default:
        reader.error(
          entry.keySpan,
          `${helper}(): unknown option "${entry.key}"${didYouMean(entry.key, OPTION_NAMES)}`,
        );
    }
  }
  return flags;
}
