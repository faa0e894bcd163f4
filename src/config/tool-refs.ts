import type { Expr } from './ast.ts';
import type { DecodeContext } from './context.ts';
import { referenceOf, reportUnsupportedNamespace } from './references.ts';
import { didYouMean } from '../base/suggest.ts';
import type { BuiltinHttpMethod, BuiltinToolName, ToolRef } from './config-types.ts';

/** The built-in HTTP methods, in the order `builtins.http.all` expands to. */
export const HTTP_METHODS: readonly BuiltinHttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

const HTTP_TOOLS: BuiltinToolName[] = HTTP_METHODS.map(
  (method) => `builtins.http.${method}` as BuiltinToolName,
);
const UTILS_TOOLS: BuiltinToolName[] = ['builtins.utils.current_time', 'builtins.utils.sleep'];

/** Every built-in tool reference, plus the two `all` groups. */
const BUILTIN_REFERENCES: Record<string, BuiltinToolName[]> = {
  ...Object.fromEntries([...HTTP_TOOLS, ...UTILS_TOOLS].map((name) => [name, [name]])),
  'builtins.http.all': HTTP_TOOLS,
  'builtins.utils.all': UTILS_TOOLS,
};

/** Resolves an agent's `tools` list: built-ins (with `all` expanded) and custom tools, deduplicated, in order. */
export function resolveToolRefs(
  items: readonly Expr[],
  customTools: ReadonlySet<string>,
  context: DecodeContext,
): ToolRef[] {
  const tools: ToolRef[] = [];
  const add = (tool: ToolRef): void => {
    if (!tools.some((existing) => existing.kind === tool.kind && existing.name === tool.name))
      tools.push(tool);
  };
  for (const item of items) {
    const reference = referenceOf(item);
    if (reference === undefined) {
      context.sink.error(
        item.span,
        'tools expects references like builtins.http.get or tools.NAME',
        context.path,
      );
      continue;
    }
    if (reportUnsupportedNamespace(reference, context)) continue;
    const text = reference.segments.join('.');
    const [root, name] = reference.segments;
    if (root === 'builtins') {
      const builtins = BUILTIN_REFERENCES[text];
      if (builtins === undefined) {
        const suggestion = didYouMean(text, Object.keys(BUILTIN_REFERENCES));
        context.sink.error(
          reference.span,
          `unknown built-in tool "${text}"${suggestion}`,
          context.path,
        );
      } else {
        builtins.forEach((builtin) => add({ kind: 'builtin', name: builtin }));
      }
    } else if (root === 'tools' && reference.segments.length === 2 && name !== undefined) {
      if (customTools.has(name)) add({ kind: 'custom', name });
      else {
        const suggestion = didYouMean(name, customTools);
        context.sink.error(
          reference.span,
          `unknown tool "${name}" in tools${suggestion}`,
          context.path,
        );
      }
    } else {
      context.sink.error(
        reference.span,
        `tools expects references like builtins.http.get or tools.NAME, got ${text}`,
        context.path,
      );
    }
  }
  return tools;
}

/** Resolves a custom tool's `implements` (HTTP built-ins only) to its method. */
export function resolveImplements(
  expr: Expr,
  context: DecodeContext,
): BuiltinHttpMethod | undefined {
  const reference = referenceOf(expr);
  if (reference !== undefined && reportUnsupportedNamespace(reference, context)) return undefined;
  const text = reference?.segments.join('.');
  const method = HTTP_METHODS.find((candidate) => `builtins.http.${candidate}` === text);
  if (method === undefined) {
    const suggestion = text === undefined ? '' : didYouMean(text, HTTP_TOOLS);
    context.sink.error(
      expr.span,
      `implements must be one of ${HTTP_TOOLS.join(', ')}${suggestion}`,
      context.path,
    );
  }
  return method;
}
