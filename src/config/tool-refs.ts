import type { Expr } from './ast.ts';
import { errorAt, type DecodeContext } from './context.ts';
import { referenceOf, reportUnsupportedNamespace, type Reference } from './references.ts';
import { didYouMean } from '../base/suggest.ts';
import {
  BUILTIN_TOOL_NAMES,
  type BuiltinHttpMethod,
  type BuiltinToolName,
  type ToolRef,
} from './config-types.ts';

/** The built-in HTTP methods, in the order `builtins.http.all` expands to. */
export const HTTP_METHODS: readonly BuiltinHttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

const HTTP_TOOLS = HTTP_METHODS.map((method): BuiltinToolName => `builtins.http.${method}`);
/**
 * The reference runtime's dataset tools: accepted in `tools` and expanded to nothing, because
 * every agent of a mission gets `set_dataset`, `dataset_sample` and `dataset_count` anyway.
 */
const DATASET_TOOLS = ['set', 'sample', 'count', 'all'].map((name) => `builtins.dataset.${name}`);

/** Every built-in tool reference, plus the `all` group of each family (`builtins.http.all`). */
const BUILTIN_REFERENCES: Record<string, BuiltinToolName[]> = {
  ...Object.fromEntries(BUILTIN_TOOL_NAMES.map((name) => [name, [name]])),
  ...Object.fromEntries(
    ['http', 'utils', 'human'].map((family) => [
      `builtins.${family}.all`,
      BUILTIN_TOOL_NAMES.filter((name) => name.startsWith(`builtins.${family}.`)),
    ]),
  ),
  ...Object.fromEntries(DATASET_TOOLS.map((name) => [name, []])),
};

/** What a `tools` list may name besides built-ins. */
export interface ToolScope {
  customTools: ReadonlySet<string>;
  mcpServers: ReadonlySet<string>;
}

const EXPECTED = 'tools expects references like builtins.http.get, tools.NAME or mcp.SERVER.TOOL';

/**
 * Resolves a `tools` list (an agent's or a skill's): built-ins (with `all` expanded), custom
 * tools and MCP server tools, deduplicated, in order.
 */
export function resolveToolRefs(
  items: readonly Expr[],
  scope: ToolScope,
  context: DecodeContext,
): ToolRef[] {
  const tools: ToolRef[] = [];
  const add = (tool: ToolRef): void => {
    if (!tools.some((existing) => toolKey(existing) === toolKey(tool))) tools.push(tool);
  };
  for (const item of items) {
    const reference = referenceOf(item);
    if (reference === undefined) {
      errorAt(context, item.span, EXPECTED);
      continue;
    }
    if (reportUnsupportedNamespace(reference, context)) continue;
    resolveToolRef(reference, scope, context)?.forEach(add);
  }
  return tools;
}

/** What makes two references the same tool (an MCP server's `all` has no tool name). */
function toolKey(tool: ToolRef): string {
  return JSON.stringify(
    tool.kind === 'mcp' ? [tool.kind, tool.server, tool.tool] : [tool.kind, tool.name],
  );
}

function resolveToolRef(
  reference: Reference,
  scope: ToolScope,
  context: DecodeContext,
): ToolRef[] | undefined {
  const text = reference.segments.join('.');
  const [root, name] = reference.segments;
  if (root === 'builtins') {
    const builtins = BUILTIN_REFERENCES[text];
    if (builtins !== undefined)
      return builtins.map((builtin) => ({ kind: 'builtin', name: builtin }));
    const suggestion = didYouMean(text, Object.keys(BUILTIN_REFERENCES));
    return errorAt(context, reference.span, `unknown built-in tool "${text}"${suggestion}`);
  }
  if (root === 'tools' && reference.segments.length === 2 && name !== undefined) {
    if (scope.customTools.has(name)) return [{ kind: 'custom', name }];
    const suggestion = didYouMean(name, scope.customTools);
    return errorAt(context, reference.span, `unknown tool "${name}" in tools${suggestion}`);
  }
  if (root === 'mcp') return resolveMcpToolRef(reference, scope, context);
  return errorAt(context, reference.span, `${EXPECTED}, got ${text}`);
}

/**
 * `mcp.SERVER.all` or `mcp.SERVER.TOOL`. Only the server is checked: the tools a server offers
 * are known once it runs, so a tool name stays an unresolved reference for the run to check.
 */
function resolveMcpToolRef(
  reference: Reference,
  scope: ToolScope,
  context: DecodeContext,
): ToolRef[] | undefined {
  const [, server, tool, ...rest] = reference.segments;
  if (server === undefined || tool === undefined || tool === '' || rest.length > 0) {
    return errorAt(
      context,
      reference.span,
      `an MCP tool reference reads mcp.SERVER.TOOL or mcp.SERVER.all, got ${reference.segments.join('.')}`,
    );
  }
  if (!scope.mcpServers.has(server)) {
    const suggestion = didYouMean(server, scope.mcpServers);
    const hint =
      scope.mcpServers.size === 0
        ? 'declare the server with an mcp "NAME" { ... } block'
        : undefined;
    errorAt(context, reference.span, `unknown MCP server "${server}" in tools${suggestion}`, hint);
    return undefined;
  }
  const ref: ToolRef = { kind: 'mcp', server, span: reference.span };
  if (tool !== 'all') ref.tool = tool;
  return [ref];
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
    errorAt(context, expr.span, `implements must be one of ${HTTP_TOOLS.join(', ')}${suggestion}`);
  }
  return method;
}
