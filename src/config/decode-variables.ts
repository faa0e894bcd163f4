import type { Block } from './ast.ts';
import { blockName, checkBody, headerSpan } from './body.ts';
import { errorAt, within, type DecodeContext } from './context.ts';
import type { VariableConfig } from './config-types.ts';
import { findVariableValue, type VariableSources } from './variable-values.ts';
import { literalText, readBool, readString } from './values.ts';

/** Decodes a `variable "NAME"` block and finds its value; undefined when its label is unusable. */
export function decodeVariable(
  block: Block,
  context: DecodeContext,
  sources: VariableSources,
): VariableConfig | undefined {
  const name = blockName(block, context);
  if (name === undefined) return undefined;
  const inner = within(context, `variable "${name}"`);
  const body = checkBody(
    block.body,
    { attributes: ['default', 'secret', 'description'] },
    inner,
    headerSpan(block),
  );
  const secret = readBool(body.attributes.get('secret'), inner) ?? false;
  const defaultAttribute = body.attributes.get('default');
  let defaultValue: string | number | boolean | undefined;
  if (defaultAttribute !== undefined) {
    const expr = defaultAttribute.value;
    const text = literalText(expr);
    if (text !== undefined) defaultValue = text;
    else if (
      expr.kind === 'literal' &&
      (typeof expr.value === 'number' || typeof expr.value === 'boolean')
    ) {
      defaultValue = expr.value;
    } else {
      errorAt(inner, expr.span, 'default must be a string, number or bool');
    }
    if (secret) {
      errorAt(
        inner,
        defaultAttribute.nameSpan,
        `secret variable "${name}" cannot have a default`,
        'secrets come from --var or the environment, never from files',
      );
      defaultValue = undefined;
    }
  }
  const description = readString(body.attributes.get('description'), inner);
  const found = findVariableValue(name, defaultValue, sources);
  const variable: VariableConfig = {
    name,
    secret,
    declared: true,
    source: found.source,
    span: block.labelSpans[0] ?? block.span,
  };
  if (description !== undefined) variable.description = description;
  if (found.value !== undefined) variable.value = found.value;
  return variable;
}
