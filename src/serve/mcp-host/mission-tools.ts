/**
 * One typed tool per mission, `mission_NAME`: its input schema is the mission's inputs (a file
 * input as an upload, a protected input's default left out), and a call runs the mission to its
 * end and answers its result. While it runs, each event worth a line in the plain log is a
 * progress notification (when the client sent a progress token); cancelling the call cancels
 * the run (journaled, resumable).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { MissionConfig } from '../../config/config-types.ts';
import { FILE_MARKER } from '../../schema/index.ts';
import { missionView } from '../http/api-routes.ts';
import { errorResult, jsonResult, runUri, type McpHostContext } from './host-context.ts';
import { followRun, type ToolCallExtra } from './follow-tool-run.ts';
import { runDetails } from './run-details.ts';
import { startMission } from './start-mission.ts';

/** The tool of a mission. */
export function missionToolName(mission: string): string {
  return `mission_${mission}`;
}

/** The mission's inputs as a caller gives them: files are uploads, never paths on the server. */
export function toolInputSchema(mission: MissionConfig): Record<string, unknown> {
  const schema = missionView(mission).input_schema as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, property] of Object.entries(properties)) {
    if (property[FILE_MARKER] !== true) continue;
    properties[name] = {
      type: 'object',
      description: property.description ?? 'A file',
      properties: {
        filename: { type: 'string', description: 'The file name (no slashes)' },
        content_base64: { type: 'string', description: 'The file, base64-encoded' },
      },
      required: ['content_base64'],
      additionalProperties: false,
    };
  }
  return schema;
}

/** Registers `mission_NAME` for every mission of the project. */
export function registerMissionTools(server: McpServer, host: McpHostContext): void {
  for (const mission of host.project.config.missions.values()) {
    const tasks = [...mission.tasks.keys()].join(', ');
    server.registerTool(
      missionToolName(mission.name),
      {
        title: `Run mission ${mission.name}`,
        description:
          `Runs the sortie mission "${mission.name}" (tasks: ${tasks}) to its end and returns its ` +
          `result: each task's status, summary and output. ${mission.directive ?? ''}`.trim(),
        // The mission's own JSON Schema, through zod, which the SDK lists and checks calls with.
        inputSchema: z.fromJSONSchema(toolInputSchema(mission) as z.core.JSONSchema.JSONSchema),
      },
      (args, extra) => runToEnd(server, host, mission, args, extra),
    );
  }
}

async function runToEnd(
  server: McpServer,
  host: McpHostContext,
  mission: MissionConfig,
  args: unknown,
  extra: ToolCallExtra,
): Promise<CallToolResult> {
  const started = startMission(server, host, mission, args, extra.requestId);
  if ('refused' in started) return errorResult(started.refused);
  const ended = await followRun(host, started.runId, extra);
  if (ended !== undefined) return errorResult(ended);
  const details = await runDetails(host, started.runId);
  if (details === undefined) return errorResult(`run ${started.runId} left no journal`);
  return {
    ...jsonResult(details),
    ...(details.status === 'succeeded' ? {} : { isError: true }),
    content: [
      ...jsonResult(details).content,
      {
        type: 'resource_link',
        uri: runUri(started.runId),
        name: `run ${started.runId}`,
        mimeType: 'application/json',
      },
    ],
  };
}
