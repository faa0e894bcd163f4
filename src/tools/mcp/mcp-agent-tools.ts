import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { createRedactor, redactDeep } from '../../base/redact.ts';
import { defineTool } from '../define-tool.ts';
import type { AgentTool } from '../builtins/agent-tool.ts';
import { errorOutcome } from '../builtins/agent-tool.ts';
import { outcomeOfResult } from './mcp-result.ts';
import type { McpServerSession } from './mcp-session.ts';
import { modelToolName } from './mcp-tool-names.ts';

/**
 * A tool of an MCP server as an agent tool: its description and input schema as the server
 * gives them (providers that need another schema dialect convert it, as for every tool), its
 * arguments checked by the server against its own schema, its result mapped by `mcp-result`.
 */
export function mcpAgentTool(session: McpServerSession, tool: Tool): AgentTool {
  const server = session.name;
  const label = `mcp "${server}" tool "${tool.name}"`;
  return {
    definition: defineTool({
      name: modelToolName(server, tool.name),
      description:
        tool.description ?? tool.title ?? `The tool ${tool.name} of the MCP server ${server}.`,
      parameters: tool.inputSchema,
    }),
    validatesOwnArguments: true,
    async execute(args, context) {
      const origin =
        context.human === undefined
          ? undefined
          : {
              asker: context.human,
              callId: context.callId ?? tool.name,
              ...(context.sampler !== undefined ? { sampler: context.sampler } : {}),
              ...(context.notify !== undefined ? { notify: context.notify } : {}),
            };
      const called = await session.call(tool.name, args, context.signal, origin);
      if (!called.ok) return errorOutcome(called.error);
      const outcome = await outcomeOfResult(called.result, label);
      // A server that echoes its OAuth token (a debugging tool) must not hand it to the model.
      const redact = createRedactor(session.tokenValues());
      return redact.redactsNothing === true ? outcome : redactDeep(outcome, redact);
    },
  };
}
