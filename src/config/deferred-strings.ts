import type { Expr } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import type { DeferredString } from './config-types.ts';
import { expandLoads, variableName } from './values.ts';

/**
 * A string whose variables are resolved only when needed: text and `vars.*` references.
 * With `primitives`, a number or bool literal is accepted as its text (`env = { DEBUG = true }`).
 */
export function readDeferredString(
  expr: Expr,
  name: string,
  context: DecodeContext,
  options: { primitives?: boolean } = {},
): DeferredString | undefined {
  const expanded = expandLoads(expr, context);
  if (
    options.primitives === true &&
    expanded.kind === 'literal' &&
    (typeof expanded.value === 'number' || typeof expanded.value === 'boolean')
  ) {
    return { segments: [{ text: expanded.raw ?? String(expanded.value) }] };
  }
  const pieces = expanded.kind === 'template' ? expanded.parts : [expanded];
  const segments: DeferredString['segments'] = [];
  for (const piece of pieces) {
    if (piece.kind === 'text') segments.push({ text: piece.value });
    else if (piece.kind === 'literal' && typeof piece.value === 'string')
      segments.push({ text: piece.value });
    else if (piece.kind === 'traversal' && piece.root === 'vars') {
      const variable = variableName(piece, context);
      if (variable === undefined) return undefined;
      segments.push({ variable, span: piece.span });
    } else {
      return errorAt(context, piece.span, `${name} must be a string or a variable (vars.NAME)`);
    }
  }
  return { segments };
}

/** The text of a deferred string without variables; undefined when it has one. */
export function literalOf(deferred: DeferredString): string | undefined {
  let text = '';
  for (const segment of deferred.segments) {
    if (!('text' in segment)) return undefined;
    text += segment.text;
  }
  return text;
}

/** The names of the variables a deferred string reads, in order. */
export function variablesOf(deferred: DeferredString): string[] {
  return deferred.segments.flatMap((segment) => ('variable' in segment ? [segment.variable] : []));
}
