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

/** The outcome's text content parsed as JSON (fails the test on rich content). */
export function parsed(outcome: ToolOutcome): unknown {
  if (typeof outcome.content !== 'string') throw new Error('expected text content');
  return JSON.parse(outcome.content);
}
