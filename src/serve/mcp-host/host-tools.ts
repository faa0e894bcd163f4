/**
 * The reference runtime's `mcp_host` tools that apply to sortie, with its names and arguments:
 * the version, the missions, starting a run without waiting for it, and the runs. (Which were
 * left out, and why: docs/decisions.md.)
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { missionView } from '../http/api-routes.ts';
import { errorResult, jsonResult, runUri, type McpHostContext } from './host-context.ts';
import { missionToolName } from './mission-tools.ts';
import { runDetails, runRows } from './run-details.ts';
import { startMission } from './start-mission.ts';

/** Registers list_version, list_missions, get_mission_config, run_mission, list_runs, get_run_details. */
export function registerHostTools(server: McpServer, host: McpHostContext): void {
  const { config } = host.project;
  const missionNamed = (name: string) => config.missions.get(name);
  const noMission = (name: string) =>
    errorResult(`no mission "${name}"; list_missions lists the project's missions`);

  server.registerTool(
    'list_version',
    { description: 'The version of sortie serving this project' },
    () => jsonResult({ version: host.version }),
  );
  server.registerTool(
    'list_missions',
    { description: "The project's missions: their tasks, agents and inputs" },
    () =>
      jsonResult({
        missions: [...config.missions.values()].map((mission) => ({
          name: mission.name,
          directive: mission.directive ?? null,
          agents: mission.agents,
          tasks: [...mission.tasks.keys()],
          inputs: missionView(mission).inputs,
          tool: missionToolName(mission.name),
        })),
      }),
  );
  server.registerTool(
    'get_mission_config',
    {
      description: "A mission's configuration: tasks, agents, inputs and their JSON Schema",
      inputSchema: { name: z.string().describe('Mission name') },
    },
    ({ name }) => {
      const mission = missionNamed(name);
      if (mission === undefined) return noMission(name);
      const tasks = [...mission.tasks.values()].map((task) => ({
        name: task.name,
        depends_on: task.dependsOn,
      }));
      return jsonResult({ ...missionView(mission), agents: mission.agents, tasks });
    },
  );
  server.registerTool(
    'run_mission',
    {
      description:
        'Starts a mission and returns its run id at once (get_run_details or the resource ' +
        `sortie://runs/{id} tell how it goes; the mission's own tool waits for its result)`,
      inputSchema: {
        name: z.string().describe('Mission name'),
        inputs: z.record(z.string(), z.unknown()).optional().describe('Mission inputs by name'),
      },
    },
    ({ name, inputs }) => {
      const mission = missionNamed(name);
      if (mission === undefined) return noMission(name);
      // The call returns before the run asks anything: questions go to the client unrelated.
      const started = startMission(server, host, mission, inputs, undefined);
      if ('refused' in started) return errorResult(started.refused);
      return jsonResult({
        accepted: true,
        run_id: started.runId,
        status: started.status,
        uri: runUri(started.runId),
      });
    },
  );
  server.registerTool(
    'list_runs',
    {
      description: 'Runs of this state directory, newest first, with optional filtering',
      inputSchema: {
        limit: z.number().int().min(1).optional().describe('Max results to return (default 20)'),
        offset: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Number of results to skip (default 0)'),
        mission_name: z.string().optional().describe('Filter by mission name'),
      },
    },
    async ({ limit = 20, offset = 0, mission_name: mission }) => {
      const rows = await runRows(host, mission);
      return jsonResult({ runs: rows.slice(offset, offset + limit), total: rows.length });
    },
  );
  server.registerTool(
    'get_run_details',
    {
      description: "A run's status, cost, and each task's status, summary and output",
      inputSchema: { run_id: z.string().describe('Run id') },
    },
    async ({ run_id: runId }) => {
      const details = await runDetails(host, runId);
      if (details === undefined) return errorResult(`no run ${runId} in this state directory`);
      return jsonResult(details);
    },
  );
}
