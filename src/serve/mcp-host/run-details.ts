/**
 * Runs as the MCP host shows them, in the HTTP API's shapes: the rows of the state directory
 * with this server's queued runs first, and one run in detail — queued, still running (from the
 * events it has in memory) or ended (from its journal, what `sortie show` reads).
 */
import { listRuns, loadRunSummary } from '../../journal/runs.ts';
import { summarizeRun } from '../../journal/summary.ts';
import { RUN_ID } from '../http/api-routes.ts';
import { queuedView, runRowView, runView } from '../http/run-views.ts';
import type { RunService } from '../run-service.ts';

/** What reading runs needs. */
export interface RunReader {
  service: RunService;
  stateDir: string;
}

/** The keys of a run's row (`runRowView`), picked from its detail. */
const ROW_KEYS = ['run_id', 'mission', 'status', 'started_at', 'duration_ms', 'tokens'] as const;
const COST_KEYS = ['cost_pico', 'cost_usd', 'unpriced'] as const;

/**
 * Every run: queued ones, running ones (from their events: a journal just begun may not name
 * its mission yet), then the other journals, newest first; only `mission`'s when given.
 */
export async function runRows(
  reader: RunReader,
  mission?: string,
): Promise<Array<Record<string, unknown>>> {
  const running = reader.service.running().map((run) => {
    const view = runView(summarizeRun(run.events, 'running'));
    const row = Object.fromEntries([...ROW_KEYS, ...COST_KEYS].map((key) => [key, view[key]]));
    return { ...row, run_id: run.runId, mission: run.request.mission };
  });
  const live = new Set(running.map((row) => row.run_id));
  const journaled = (await listRuns(reader.stateDir)).filter((row) => !live.has(row.runId));
  const rows = [
    ...reader.service.allQueued().map(queuedView),
    ...running.reverse(),
    ...journaled.map(runRowView),
  ];
  return rows.filter((row) => mission === undefined || row.mission === mission);
}

/** One run in detail (its tasks with their outputs), or undefined when there is no such run. */
export async function runDetails(
  reader: RunReader,
  runId: string,
): Promise<Record<string, unknown> | undefined> {
  // Anything but a run id is never read as a path.
  if (!RUN_ID.test(runId)) return undefined;
  const queued = reader.service.queued(runId);
  if (queued !== undefined) return queuedView(queued);
  const live = reader.service.find(runId);
  if (live?.live === true) return runView(summarizeRun(live.events, 'running'));
  try {
    return runView(await loadRunSummary(reader.stateDir, runId));
  } catch {
    return undefined;
  }
}
