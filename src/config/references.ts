import type { Attribute, Expr, Span } from './ast.ts';
import { UNSUPPORTED_BLOCKS } from './body.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { didYouMean } from '../base/suggest.ts';
import { literalText, readList } from './values.ts';

/** A reference as written: `tasks.fetch` (traversal) or `"fetch"` / `"tasks.fetch"` (string). */
export interface Reference {
  segments: string[];
  span: Span;
  form: 'traversal' | 'string';
}

/** Namespaces of the reference runtime that sortie does not support, with their block type. */
const UNSUPPORTED_NAMESPACES: Record<string, string> = {
  plugins: 'plugin',
};

/** The segments of a reference-shaped expression, or undefined (traversals with index steps too). */
export function referenceOf(expr: Expr): Reference | undefined {
  if (expr.kind === 'traversal') {
    const segments = [expr.root];
    for (const step of expr.steps) {
      if (step.kind !== 'attr') return undefined;
      segments.push(step.name);
    }
    return { segments, span: expr.span, form: 'traversal' };
  }
  const text = literalText(expr);
  if (text === undefined || text === '') return undefined;
  return { segments: text.split('.'), span: expr.span, form: 'string' };
}

/** Reports a reference into a namespace sortie does not support; true when it did. */
export function reportUnsupportedNamespace(reference: Reference, context: DecodeContext): boolean {
  const [root] = reference.segments;
  const blockType = root === undefined ? undefined : UNSUPPORTED_NAMESPACES[root];
  if (blockType === undefined || reference.segments.length < 2) return false;
  errorAt(
    context,
    reference.span,
    `\`${root}.*\` references are not supported by sortie (\`${blockType}\` blocks are not supported)`,
    UNSUPPORTED_BLOCKS[blockType],
  );
  return true;
}

/** How to resolve a reference to one named thing of a namespace. */
export interface NameLookup {
  /** `tasks`, `agents`, ... */
  namespace: string;
  /** `task`, `agent`, ... (for messages). */
  kind: string;
  names: ReadonlySet<string> | ReadonlyMap<string, unknown>;
  /** The attribute it appears in, for messages: `depends_on`. */
  where: string;
}

/**
 * Resolves `NAMESPACE.NAME` or the literal string forms `"NAME"` / `"NAMESPACE.NAME"` to NAME,
 * reporting malformed, unsupported and unknown references.
 */
export function resolveName(
  expr: Expr,
  lookup: NameLookup,
  context: DecodeContext,
): string | undefined {
  const reference = referenceOf(expr);
  const example = `${lookup.namespace}.NAME`;
  const article = /^[aeiou]/.test(lookup.kind) ? 'an' : 'a';
  if (reference === undefined) {
    return errorAt(
      context,
      expr.span,
      `${lookup.where} expects ${article} ${lookup.kind} reference like ${example}`,
    );
  }
  if (reportUnsupportedNamespace(reference, context)) return undefined;
  const { segments } = reference;
  let name: string | undefined;
  if (segments.length === 2 && segments[0] === lookup.namespace) name = segments[1];
  else if (segments.length === 1 && reference.form === 'string') name = segments[0];
  if (name === undefined) {
    return errorAt(
      context,
      reference.span,
      `${lookup.where} expects ${article} ${lookup.kind} reference like ${example}, got ${segments.join('.')}`,
    );
  }
  if (!lookup.names.has(name)) {
    const suggestion = didYouMean(name, lookup.names.keys());
    return errorAt(
      context,
      reference.span,
      `unknown ${lookup.kind} "${name}" in ${lookup.where}${suggestion}`,
    );
  }
  return name;
}

/**
 * Resolves a list attribute of references (`depends_on = [...]`) in declaration order, reporting
 * duplicates: none when it is absent or not a list.
 */
export function readNameList(
  attribute: Attribute | undefined,
  lookup: Omit<NameLookup, 'where'>,
  context: DecodeContext,
): Array<{ name: string; span: Span }> {
  const items = readList(attribute, context);
  if (attribute === undefined || items === undefined) return [];
  const resolved: Array<{ name: string; span: Span }> = [];
  for (const item of items) {
    const name = resolveName(item, { ...lookup, where: attribute.name }, context);
    if (name === undefined) continue;
    if (resolved.some((entry) => entry.name === name)) {
      errorAt(context, item.span, `duplicate ${lookup.kind} "${name}" in ${attribute.name}`);
      continue;
    }
    resolved.push({ name, span: item.span });
  }
  return resolved;
}
