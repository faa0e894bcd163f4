/**
 * The JSON API under `/api`: health, missions with their input schemas, starting runs, runs
 * (listed, one in detail, cancelled, resumed) and the inbox of questions to the person. Runs
 * are read from their journals (what `sortie runs` and `show` read); a run of this server
 * still running is read from the events it has in memory.
 */
import { Hono, type Context } from 'hono';
import type { Config, MissionConfig } from '../../config/config-types.ts';
import { listRuns, loadRunSummary } from '../../journal/runs.ts';
import { summarizeRun } from '../../journal/summary.ts';
import type { RunService } from '../run-service.ts';
import { jsonError } from './guards.ts';
import { queuedView, runRowView, runView } from './run-views.ts';
import { readJson, submitRun } from './submit.ts';

/** What the API routes read. */
export interface ApiContext {
  config: Config;
  stateDir: string;
  service: RunService;
}

/** A run id as sortie makes them (`newRunId`): anything else is not a run, never a path. */
export const RUN_ID = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;

/** A mission's inputs as the API describes them; a protected input's default is not shown. */
export function missionView(mission: MissionConfig): Record<string, unknown> {
  const fields = mission.inputs?.fields ?? [];
  const schema = structuredClone(mission.inputs?.jsonSchema ?? { type: 'object', properties: {} });
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const field of fields) {
    if (field.protected) delete properties[field.name]?.default;
  }
  return {
    name: mission.name,
    max_parallel: mission.maxParallel,
    inputs: fields.map((field) => ({
      name: field.name,
      type: field.type,
      required: field.required,
      protected: field.protected,
      file: field.file,
      description: field.description ?? null,
    })),
    input_schema: schema,
  };
}

/** `GET /api/runs/{id}` of a run: this server's live or queued run, else its journal. */
async function runDetail(context: Context, api: ApiContext, runId: string): Promise<Response> {
  if (!RUN_ID.test(runId)) return jsonError(context, 404, 'unknown_run', `no run ${runId}`);
  const queued = api.service.queued(runId);
  if (queued !== undefined) return context.json(queuedView(queued));
  const live = api.service.find(runId);
  if (live?.live === true) return context.json(runView(summarizeRun(live.events, 'running')));
  try {
    return context.json(runView(await loadRunSummary(api.stateDir, runId)));
  } catch {
    return jsonError(context, 404, 'unknown_run', `no run ${runId} in this state directory`);
  }
}

/** The `/api` routes (without the event stream). */
export function apiRoutes(api: ApiContext): Hono {
  const routes = new Hono();
  routes.get('/health', (context) =>
    context.json({ status: 'ok', queued: api.service.allQueued().length }),
  );
  routes.get('/missions', (context) =>
    context.json({ missions: [...api.config.missions.values()].map(missionView) }),
  );
  routes.post('/missions/:name/runs', async (context) => {
    const name = context.req.param('name');
    const mission = api.config.missions.get(name);
    if (mission === undefined) {
      return jsonError(context, 404, 'unknown_mission', `no mission "${name}"`);
    }
    const body = readJson(context);
    if (body instanceof Response) return body;
    const { value } = body;
    const inputs =
      typeof value === 'object' && value !== null && 'inputs' in value
        ? (value as { inputs: unknown }).inputs
        : {};
    return submitRun(context, api.service, mission, inputs, 'api');
  });
  routes.get('/runs', async (context) => {
    const mission = context.req.query('mission');
    const status = context.req.query('status');
    const rows = [
      ...api.service.allQueued().map(queuedView),
      ...(await listRuns(api.stateDir)).map(runRowView),
    ];
    const wanted = rows.filter(
      (row) =>
        (mission === undefined || row.mission === mission) &&
        (status === undefined || row.status === status),
    );
    return context.json({ runs: wanted });
  });
  routes.get('/runs/:id', (context) => runDetail(context, api, context.req.param('id')));
  routes.post('/runs/:id/cancel', (context) => {
    const runId = context.req.param('id');
    if (!api.service.cancel(runId)) {
      return jsonError(context, 404, 'not_running', `run ${runId} is not running on this server`);
    }
    return context.json({ run_id: runId, status: 'cancelling' }, 202);
  });
  routes.post('/runs/:id/resume', async (context) => {
    const runId = context.req.param('id');
    if (!RUN_ID.test(runId)) return jsonError(context, 404, 'unknown_run', `no run ${runId}`);
    const outcome = await api.service.resume(runId, 'api');
    if ('refused' in outcome) return jsonError(context, 409, 'not_resumable', outcome.refused);
    if (outcome.admission === 'stopped') {
      return jsonError(context, 503, 'stopping', 'the server is stopping; it starts no more runs');
    }
    if (outcome.admission === 'full') {
      return jsonError(context, 429, 'queue_full', 'the mission’s queue is full; try again later');
    }
    const status = outcome.admission === 'started' ? 'running' : 'queued';
    return context.json({ run_id: runId, status }, 202);
  });
  routes.get('/questions', (context) =>
    context.json({ questions: api.service.inbox.list(context.req.query('run_id')) }),
  );
  routes.post('/questions/:id/answer', async (context) => {
    const body = readJson(context);
    if (body instanceof Response) return body;
    const answer = (body.value as { answer?: unknown } | null)?.answer;
    const isList = Array.isArray(answer) && answer.every((pick) => typeof pick === 'string');
    if (typeof answer !== 'string' && !isList) {
      return jsonError(
        context,
        400,
        'invalid_answer',
        'send {"answer": "TEXT"} (a choice by text or number) or {"answer": ["CHOICE", ...]}',
      );
    }
    const outcome = api.service.inbox.answer(context.req.param('id'), answer as string | string[]);
    if (outcome === 'unknown') {
      return jsonError(context, 404, 'unknown_question', 'no such question is waiting');
    }
    if (outcome !== 'answered') return jsonError(context, 400, 'invalid_answer', outcome.problem);
    return context.json({ answered: true });
  });
  return routes;
}
