/**
 * One value of an `inputs = { … }` map written in HCL (a schedule's, an eval case's): a string is
 * converted by the input's type, as `--input` converts it; anything else must be a constant.
 */
import type { Attribute, Expr, Span } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { convertInputText } from './input-text.ts';
import { constantValue } from './schema-helpers/constant-value.ts';
import { readString } from './values.ts';

/** The value of input `key`, or undefined after an error; `vars.*` counts as text when allowed. */
export function inputEntryValue(
  key: string,
  keySpan: Span,
  expr: Expr,
  property: Record<string, unknown>,
  context: DecodeContext,
  varsAllowed: boolean,
): { value: unknown } | undefined {
  const isText =
    expr.kind === 'template' ||
    (expr.kind === 'literal' && typeof expr.value === 'string') ||
    (varsAllowed && expr.kind === 'traversal' && expr.root === 'vars');
  if (isText) {
    const attribute: Attribute = {
      kind: 'attribute',
      name: `inputs.${key}`,
      nameSpan: keySpan,
      value: expr,
      span: expr.span,
    };
    const text = readString(attribute, context);
    if (text === undefined) return undefined;
    const converted = convertInputText(text, property);
    if ('value' in converted) return converted;
    return errorAt(context, expr.span, `input "${key}": ${converted.problem}`);
  }
  const constant = constantValue(expr);
  if (constant.ok) return { value: constant.value };
  return errorAt(context, expr.span, `input "${key}" ${constant.diagnostic.message}`);
}
