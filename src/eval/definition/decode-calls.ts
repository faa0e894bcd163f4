/** `calls = ["lookup", { tool = "send", arguments = { to = "ops" } }]` of `expect "tools"`. */
import type { Attribute } from '../../config/ast.ts';
import type { DecodeContext } from '../../config/context.ts';
import { constantValue } from '../../config/schema-helpers/constant-value.ts';
import { literalText, readList } from '../../config/values.ts';
import type { ExpectedCall } from './eval-types.ts';

const CALL_FORM = 'a call is "TOOL" or { tool = "TOOL", arguments = { … } }';

/** The expected calls in order, or undefined with errors reported. */
export function readCalls(
  attribute: Attribute,
  context: DecodeContext,
): ExpectedCall[] | undefined {
  const items = readList(attribute, context);
  if (items === undefined) return undefined;
  if (items.length === 0) {
    context.sink.error(attribute.value.span, 'calls needs at least one tool', context.path);
    return undefined;
  }
  const calls: ExpectedCall[] = [];
  let ok = true;
  for (const item of items) {
    const name = literalText(item);
    if (name !== undefined) {
      calls.push({ tool: name });
      continue;
    }
    const constant = constantValue(item);
    const value = constant.ok ? constant.value : undefined;
    const call = callOf(value);
    if (call === undefined) {
      context.sink.error(item.span, CALL_FORM, context.path);
      ok = false;
    } else calls.push(call);
  }
  return ok ? calls : undefined;
}

function callOf(value: unknown): ExpectedCall | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const extra = Object.keys(record).filter((key) => key !== 'tool' && key !== 'arguments');
  const { tool, arguments: args } = record;
  if (extra.length > 0 || typeof tool !== 'string') return undefined;
  if (args === undefined) return { tool };
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return { tool, arguments: args as Record<string, unknown> };
}
