/**
 * A server-side secret written in a project (a webhook's `secret`, `mcp_host`'s `secret`): text
 * and `vars.*` references, resolved at load. A variable with no value is not an error: the
 * project still runs and verifies where the secret is not set, and the server that needs it
 * turns the guarded entry point off instead of serving it open.
 */
import type { Attribute } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { readDeferredString } from './deferred-strings.ts';

/** The secret's text, or the variable it reads that has no value. */
export type ServerSecret = { secret: string } | { unsetVariable: string };

/** Reads a secret attribute; undefined (with an error reported) when it is invalid or empty. */
export function readServerSecret(
  attribute: Attribute,
  context: DecodeContext,
): ServerSecret | undefined {
  const deferred = readDeferredString(attribute.value, attribute.name, context);
  if (deferred === undefined) return undefined;
  let text = '';
  for (const segment of deferred.segments) {
    if ('text' in segment) {
      text += segment.text;
      continue;
    }
    const value = context.variables.get(segment.variable)?.value;
    if (value === undefined) return { unsetVariable: segment.variable };
    text += String(value);
  }
  if (text === '') {
    return errorAt(context, attribute.value.span, `${attribute.name} must not be empty`);
  }
  return { secret: text };
}
