/**
 * Starting a run from a request (the API's `POST /api/missions/{name}/runs` and webhooks): the
 * body read as JSON, the inputs checked, the run submitted, and each outcome its answer: 202
 * with the run's id, 400 naming each bad input, 429 when the mission's queue is full, 503 while
 * the server stops.
 */
import type { Context } from 'hono';
import type { MissionConfig } from '../../config/config-types.ts';
import { requestInputs } from '../request-inputs.ts';
import type { RunSource } from '../run-manager.ts';
import type { RunService } from '../run-service.ts';
import { bodyText, jsonError } from './guards.ts';

/** The body as JSON, or the 400 answer saying it is not JSON. */
export function readJson(context: Context): { value: unknown } | Response {
  const text = bodyText(context);
  if (text.trim() === '') return { value: {} };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return jsonError(context, 400, 'invalid_json', 'the request body is not valid JSON');
  }
}

/** Checks `inputs` and submits a run of `mission`; the answer to send. */
export function submitRun(
  context: Context,
  service: RunService,
  mission: MissionConfig,
  inputs: unknown,
  source: RunSource,
): Response {
  const checked = requestInputs(mission, inputs);
  if (!checked.ok) {
    const names = checked.problems.map((problem) => problem.input || '(body)');
    return jsonError(
      context,
      400,
      'invalid_inputs',
      `invalid inputs for mission "${mission.name}": ${[...new Set(names)].join(', ')}`,
      { problems: checked.problems },
    );
  }
  const { admission, runId } = service.submit(mission.name, checked.inputs, source);
  if (admission === 'full') {
    return jsonError(
      context,
      429,
      'queue_full',
      `mission "${mission.name}" has max_parallel runs running and its queue is full; try again later`,
    );
  }
  if (admission === 'stopped') {
    return jsonError(context, 503, 'stopping', 'the server is stopping; it starts no more runs');
  }
  return context.json(
    { run_id: runId, status: admission === 'started' ? 'running' : 'queued' },
    202,
  );
}
