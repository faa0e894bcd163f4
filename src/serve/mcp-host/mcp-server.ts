/** sortie's MCP server: the host tools, one tool per mission, and the runs as resources. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpHostContext } from './host-context.ts';
import { registerHostTools } from './host-tools.ts';
import { registerMissionTools } from './mission-tools.ts';
import { registerRunResources } from './run-resources.ts';

/** A new server for one client connection (a stdio process, or one HTTP session). */
export function createMcpServer(host: McpHostContext): McpServer {
  const server = new McpServer(
    { name: 'sortie', version: host.version },
    {
      instructions:
        "Runs the project's sortie missions. Each mission_NAME tool runs one to its end; " +
        'run_mission starts one and returns; runs are resources sortie://runs/{id}.',
    },
  );
  registerHostTools(server, host);
  registerMissionTools(server, host);
  registerRunResources(server, host);
  return server;
}
