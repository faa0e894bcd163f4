import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** How long a finished run's scratchpad is kept. */
export const SCRATCHPAD_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;

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
