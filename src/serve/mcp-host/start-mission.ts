/**
 * Starting a run from an MCP tool call: the inputs checked as the HTTP API checks them, the run
 * submitted to the server's run service (so `max_parallel` and the queue hold), and its
 * questions to the person put to the calling client.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { MissionConfig } from '../../config/config-types.ts';
import { createRunRedactor } from '../../run/run-redactor.ts';
import { requestInputs } from '../request-inputs.ts';
import { elicitingHuman } from './elicit-human.ts';
import type { McpHostContext } from './host-context.ts';

/** The run's id once it is running or queued, or why it did not start. */
export type MissionStarted = { runId: string; status: 'running' | 'queued' } | { refused: string };

/** Checks `inputs` and submits a run of `mission`. */
export function startMission(
  server: McpServer,
  host: McpHostContext,
  mission: MissionConfig,
  inputs: unknown,
  relatedRequest: RequestId | undefined,
): MissionStarted {
  const checked = requestInputs(mission, inputs ?? {});
  if (!checked.ok) {
    const problems = checked.problems.map(({ input, message }) =>
      input === '' ? message : `${input}: ${message}`,
    );
    return { refused: `invalid inputs for mission "${mission.name}": ${problems.join('; ')}` };
  }
  // The questions' texts are masked with the run's own redactor (its protected inputs).
  const redactor = createRunRedactor(host.project.config, [{ mission, inputs: checked.inputs }]);
  const human = elicitingHuman(server, relatedRequest, () => redactor);
  const { admission, runId } = host.service.submit(mission.name, checked.inputs, 'mcp', human);
  if (admission === 'full') {
    return {
      refused: `mission "${mission.name}" has max_parallel runs running and its queue is full; try again later`,
    };
  }
  if (admission === 'stopped') return { refused: 'the server is stopping; it starts no more runs' };
  return { runId, status: admission === 'started' ? 'running' : 'queued' };
}
