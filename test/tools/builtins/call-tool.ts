import type {
  AgentTool,
  AgentToolContext,
  ToolOutcome,
} from '../../../src/tools/builtins/agent-tool.ts';
import { parseToolArguments } from '../../../src/tools/define-tool.ts';

/**
 * Calls a tool the way the runtime does: arguments validated against the tool's schema
 * (defaults applied) first; a schema violation comes back as the problem list.
 */
export async function callTool(
  tool: AgentTool,
  args: Record<string, unknown>,
  context: Partial<AgentToolContext> = {},
): Promise<ToolOutcome> {
  const parsed = parseToolArguments(tool.definition, JSON.stringify(args));
  if (!parsed.ok) {
    return {
      content: JSON.stringify({ status: 'error', problems: parsed.problems }),
      isError: true,
    };
  }
  return tool.execute(parsed.args, { signal: new AbortController().signal, ...context });
}

/**
 * A test's `call(name, args)`: the tool of that name in `tools` (read at each call, as tests
 * make their tools in a hook) called with `fixed` arguments (such as a slot) under `args`.
 */
export function toolCaller(
  tools: () => ReadonlyMap<string, AgentTool>,
  fixed: Record<string, unknown> = {},
): (name: string, args: Record<string, unknown>) => Promise<ToolOutcome> {
  return (name, args) => {
    const tool = tools().get(name);
    if (tool === undefined) throw new Error(`no tool ${name}`);
    return callTool(tool, { ...fixed, ...args });
  };
}

/** The outcome's text content parsed as JSON (fails the test on rich content). */
export function parsed(outcome: ToolOutcome): unknown {
  if (typeof outcome.content !== 'string') throw new Error('expected text content');
  return JSON.parse(outcome.content);
}
