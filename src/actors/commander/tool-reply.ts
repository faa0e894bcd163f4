/** The outcome of an external commander tool, as the machine's `executeTool` returns it. */
import type { ToolOutcome } from '../../tools/builtins/agent-tool.ts';
import { toolResult } from '../../tools/tool-result.ts';

/** `{"status":"ok",...}`. */
export function okReply(fields: Record<string, unknown> = {}): ToolOutcome {
  return { content: toolResult.ok(fields), isError: false };
}

/** `{"status":"error","error":...}` with the provider's error flag. */
export function errorReply(message: string, extra: Record<string, unknown> = {}): ToolOutcome {
  return { content: toolResult.error(message, extra), isError: true };
}

/** A result object from a store: an error when its status is `error`. */
export function objectReply(result: { status: string } & Record<string, unknown>): ToolOutcome {
  return { content: JSON.stringify(result), isError: result.status === 'error' };
}
