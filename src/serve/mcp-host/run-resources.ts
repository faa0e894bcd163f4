/**
 * Runs as MCP resources, `sortie://runs/{id}`: the run's summary with each task's output, as
 * JSON (what get_run_details answers). The list is every run of the state directory.
 */
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runUri, type McpHostContext } from './host-context.ts';
import { runDetails, runRows } from './run-details.ts';

/** Registers the run resources' template and its list. */
export function registerRunResources(server: McpServer, host: McpHostContext): void {
  const template = new ResourceTemplate('sortie://runs/{id}', {
    list: async () => ({
      resources: (await runRows(host)).map((row) => ({
        uri: runUri(String(row.run_id)),
        name: `run ${String(row.run_id)}`,
        description: `mission ${String(row.mission)} · ${String(row.status)}`,
        mimeType: 'application/json',
      })),
    }),
  });
  server.registerResource(
    'run',
    template,
    {
      description: 'A sortie run: its status, cost, and each task’s summary and output',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const runId = String(variables.id);
      const details = await runDetails(host, runId);
      // An unknown run reads as an error the client shows, not as an empty document.
      if (details === undefined) throw new Error(`no run ${runId} in this state directory`);
      return {
        contents: [
          { uri: uri.href, mimeType: 'application/json', text: JSON.stringify(details, null, 2) },
        ],
      };
    },
  );
}
