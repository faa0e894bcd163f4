import { readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long a finished run's scratchpad is kept. */
export const SCRATCHPAD_RETENTION_MS = 7 * DAY_MS;

/** How often a state directory's runs are swept: at most once a day, whatever the run count. */
export const SCRATCHPAD_SWEEP_INTERVAL_MS = DAY_MS;

/** The file whose modification time says when the state directory was last swept. */
export const SWEEP_MARKER = '.scratchpad-swept';

/**
 * Sweeps old scratchpads when the state directory was not swept in the last day (see
 * {@link sweepScratchpads}); otherwise costs one `stat`. A run start must not pay for every
 * earlier run folder (a scan grows with every run the state directory holds). The marker is written before the
 * sweep, so runs starting together do not all scan; a sweep that fails part-way is retried a
 * day later (the scratchpads it left only wait longer). Returns the ids swept.
 */
export async function sweepScratchpadsDaily(
  stateDir: string,
  now: Date,
  keepRunId?: string,
): Promise<string[]> {
  const seen = lastSweeps.get(stateDir);
  if (seen !== undefined && sweptRecently(seen, now)) return [];
  const marker = join(stateDir, SWEEP_MARKER);
  const last = await stat(marker).catch(() => undefined);
  if (last !== undefined && sweptRecently(last.mtimeMs, now)) {
    remember(stateDir, last.mtimeMs);
    return [];
  }
  await writeFile(marker, '');
  await utimes(marker, now, now);
  remember(stateDir, now.getTime());
  return sweepScratchpads(stateDir, now, keepRunId);
}

/**
 * The last sweep of each state directory this process swept or saw in the marker, so the
 * runs of one process `stat` the marker once a day, not once a run. Another process sweeping
 * meanwhile changes nothing: the sweep only has to happen at least once a day.
 */
const lastSweeps = new Map<string, number>();
/** A process using more state directories than this forgets the oldest (a `stat` again). */
const REMEMBERED_STATE_DIRECTORIES = 64;

function sweptRecently(sweptMs: number, now: Date): boolean {
  return now.getTime() - sweptMs < SCRATCHPAD_SWEEP_INTERVAL_MS;
}

function remember(stateDir: string, sweptMs: number): void {
  lastSweeps.delete(stateDir);
  lastSweeps.set(stateDir, sweptMs);
  if (lastSweeps.size > REMEMBERED_STATE_DIRECTORIES) {
    lastSweeps.delete(lastSweeps.keys().next().value!);
  }
}

/**
 * Removes `runs/RUN_ID/scratchpad/` of every run that ended more than 7 days before `now`,
 * and returns the ids swept. A run's end is taken as the last write to its journal
 * (`journal.jsonl` mtime; the run folder's mtime when there is no journal): the journal is
 * written until the run finishes, so its last write is the run's end, with no extra marker
 * to keep in step. `keepRunId` (the run starting the sweep) is never touched.
 */
export async function sweepScratchpads(
  stateDir: string,
  now: Date,
  keepRunId?: string,
): Promise<string[]> {
  const runsDir = join(stateDir, 'runs');
  const runs = await readdir(runsDir, { withFileTypes: true }).catch(() => []);
  const swept: string[] = [];
  for (const run of runs) {
    if (!run.isDirectory() || run.name === keepRunId) continue;
    const runDir = join(runsDir, run.name);
    const scratchpad = join(runDir, 'scratchpad');
    const scratchpadStats = await stat(scratchpad).catch(() => undefined);
    if (scratchpadStats?.isDirectory() !== true) continue;
    const journal = await stat(join(runDir, 'journal.jsonl')).catch(() => undefined);
    const ended = journal ?? (await stat(runDir).catch(() => undefined));
    if (ended === undefined) continue;
    if (now.getTime() - ended.mtimeMs <= SCRATCHPAD_RETENTION_MS) continue;
    await rm(scratchpad, { recursive: true, force: true });
    swept.push(run.name);
  }
  return swept.sort();
}
