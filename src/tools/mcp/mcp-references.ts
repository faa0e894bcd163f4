/** The MCP tool references of agents and skills, as the pool takes them. */
import { agentsOfMission } from '../../config/mission-lookup.ts';
import type { Config, MissionConfig, ToolRef } from '../../config/config-types.ts';
import type { McpToolReference } from './mcp-pool.ts';

/** An agent's (or a skill's) MCP references, in order. */
export function mcpReferencesOf(tools: readonly ToolRef[]): McpToolReference[] {
  return tools.flatMap((tool) => {
    if (tool.kind !== 'mcp') return [];
    const reference: McpToolReference = {
      server: tool.server,
      where: `${tool.span.file}:${tool.span.start.line}:${tool.span.start.column}`,
    };
    if (tool.tool !== undefined) reference.tool = tool.tool;
    return [reference];
  });
}

/** Every MCP reference of the mission's agents and their skills. */
export function mcpReferencesOfMission(config: Config, mission: MissionConfig): McpToolReference[] {
  return agentsOfMission(config, mission).flatMap((agent) =>
    [agent.tools, ...agent.skills.map((skill) => skill.tools)].flatMap(mcpReferencesOf),
  );
}
