/**
 * Large results of a commander's tools (`tool_response { max_tokens }` of its `commander`
 * block), handled as an agent's are: a result over the limit (or a JSON array of 20 items or
 * more) is stored in the run's result store and the commander sees its `partial` summary; the
 * result tools then page or search it. A `call_agent` answer is judged and stored as the
 * agent's text, its agent's name kept beside the summary.
 */
import type { ToolOutcome } from '../../machines/turn-types.ts';
import type { ToolOutcome as AgentToolOutcome } from '../../tools/builtins/agent-tool.ts';
import { errorOutcome } from '../../tools/builtins/agent-tool.ts';
import { interceptLargeResult, resultToolsFor } from '../../tools/results/index.ts';
import { redactOutcome } from '../../tools/secrets.ts';
import type { CommanderScope } from './commander-scope.ts';

/** Whether `name` is one of the result tools (`result_info` … `result_chunk`). */
export function isResultTool(name: string): boolean {
  return name.startsWith('result_');
}

/** Runs a result tool over the run's result store (arguments checked by the machine). */
export function runResultTool(
  scope: CommanderScope,
  name: string,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<AgentToolOutcome> {
  const tool = resultToolsFor(scope.runtime.services.results).find(
    (candidate) => candidate.definition.name === name,
  );
  if (tool === undefined) return Promise.resolve(errorOutcome(`unknown tool "${name}"`));
  return tool.execute(args, { signal });
}

/**
 * What the commander sees of a tool's outcome: secrets replaced, then a large result stored
 * and summarised (`stored` set, so the machine offers the result tools from then on).
 */
export async function commanderOutcome(
  scope: CommanderScope,
  tool: string,
  outcome: AgentToolOutcome,
): Promise<ToolOutcome> {
  const { services } = scope.runtime;
  const intercepted = await interceptLargeResult(redactOutcome(outcome, services.redact), {
    thresholdBytes: services.mission.commander.toolResponseMaxTokens * 4,
    store: services.results,
    toolName: tool,
  });
  const { content, isError } = intercepted.outcome;
  return intercepted.stored === undefined
    ? { content, isError }
    : { content, isError, stored: true };
}
