/**
 * Runs as the API shows them: from the journal's summary (what `sortie show` reads) or, for a
 * run still waiting in a queue, from its request. Money is pico-dollars as a decimal string
 * (exact) and dollars as a number; snake_case keys, as the API's other fields.
 */
import type { RunRow } from '../../journal/runs.ts';
import type { RunSummary, TaskSummary } from '../../journal/summary.ts';
import type { ServeRunRequest } from '../served-run.ts';

const PICO_PER_DOLLAR = 1e12;

/** Money in both forms. */
function cost(pico: bigint, unpriced: boolean): Record<string, unknown> {
  return { cost_pico: String(pico), cost_usd: Number(pico) / PICO_PER_DOLLAR, unpriced };
}

/** One line of `GET /api/runs`. */
export function runRowView(row: RunRow): Record<string, unknown> {
  return {
    run_id: row.runId,
    mission: row.mission,
    status: row.status,
    started_at: row.startedAt === '' ? null : row.startedAt,
    duration_ms: row.durationMs,
    tokens: row.tokens,
    ...cost(row.costPico, row.unpriced),
  };
}

/** A queued run, in `GET /api/runs` and `GET /api/runs/{id}`. */
export function queuedView(request: ServeRunRequest): Record<string, unknown> {
  return {
    run_id: request.runId,
    mission: request.mission,
    status: 'queued',
    started_at: null,
    duration_ms: 0,
    tokens: 0,
    ...cost(0n, false),
  };
}

function taskView(task: TaskSummary): Record<string, unknown> {
  return {
    mission: task.mission,
    name: task.name,
    status: task.status,
    summary: task.summary ?? null,
    output: task.output ?? null,
    ...(task.iterated
      ? {
          items: task.items.map((item) => ({
            index: item.index,
            status: item.status,
            output: item.output ?? null,
            ...(item.error !== undefined ? { error: item.error } : {}),
          })),
        }
      : {}),
    ...(task.error !== undefined ? { error: task.error } : {}),
    tokens: task.tokens,
    ...cost(task.costPico, task.unpriced),
  };
}

/** `GET /api/runs/{id}`: the run, its tasks, and its errors. */
export function runView(summary: RunSummary): Record<string, unknown> {
  return {
    run_id: summary.runId,
    mission: summary.mission,
    status: summary.status,
    started_at: summary.startedAt === '' ? null : summary.startedAt,
    duration_ms: summary.durationMs,
    resumed: summary.resumed,
    tokens: summary.tokens,
    ...cost(summary.costPico, summary.unpriced),
    missions: summary.missions.map((mission) => ({
      name: mission.name,
      status: mission.status,
      ...(mission.error !== undefined ? { error: mission.error } : {}),
    })),
    tasks: summary.tasks.map(taskView),
    errors: summary.errors,
  };
}
