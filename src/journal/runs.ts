/**
 * `sortie runs`: one row per run in the state directory, read from each run's journal.
 * A journal without `run.finished` is `running` while its writer process lives (the
 * `writer.pid` file), else `interrupted`.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMissing, listRunIds, runPaths, WRITER_PID_FILE_NAME } from './paths.ts';
import { journalEvents } from './reader.ts';
import { summarizeEventStream, type RunStatus, type RunSummary } from './summary.ts';
import { reasonOf } from '../base/reason.ts';

/** Journals read at the same time by `listRuns`. */
const PARALLEL_READS = 8;

/** One line of `sortie runs`. */
export interface RunRow {
  runId: string;
  /** The first mission ('' when the journal is unreadable or empty). */
  mission: string;
  /** `corrupt` when the journal cannot be read (see `problem`). */
  status: RunStatus | 'corrupt';
  /** ISO time of the first event ('' when unknown). */
  startedAt: string;
  durationMs: number;
  tokens: number;
  /** Pico-dollars. */
  costPico: bigint;
  unpriced: boolean;
  /** The run and event it was forked from (`sortie fork`); null for other runs. */
  forkedFrom: { runId: string; seq: number } | null;
  /** Why the journal could not be read. */
  problem?: string;
  /** The project it was started from (listing the run index; undefined when unknown). */
  project?: string;
}

/** Where one run is. */
export interface RunLocation {
  runId: string;
  stateDir: string;
  project?: string | undefined;
}

/** Every run in the state directory, newest first (runs of unknown start last). */
export async function listRuns(stateDir: string): Promise<RunRow[]> {
  const ids = await listRunIds(stateDir);
  return listRunsAt(ids.map((runId) => ({ runId, stateDir })));
}

/** The runs at these places (in any state directories), newest first. */
export async function listRunsAt(runs: readonly RunLocation[]): Promise<RunRow[]> {
  const rows: RunRow[] = [];
  for (let start = 0; start < runs.length; start += PARALLEL_READS) {
    const batch = runs.slice(start, start + PARALLEL_READS);
    rows.push(
      ...(await Promise.all(
        batch.map(async (run) => {
          const row = await readRunRow(run.stateDir, run.runId);
          return run.project === undefined ? row : { ...row, project: run.project };
        }),
      )),
    );
  }
  return rows.sort(
    (left, right) =>
      right.startedAt.localeCompare(left.startedAt) || right.runId.localeCompare(left.runId),
  );
}

/**
 * Reads and summarises one run's journal, streaming it (`running` vs `interrupted` decided by
 * its writer pid). Throws `CorruptJournalError` / `JournalNotFoundError` (usage errors).
 */
export async function loadRunSummary(stateDir: string, runId: string): Promise<RunSummary> {
  const paths = runPaths(stateDir, runId);
  const unfinished = (await journalWriterAlive(paths.dir)) ? 'running' : 'interrupted';
  return summarizeEventStream(journalEvents(paths.journal), unfinished);
}

async function readRunRow(stateDir: string, runId: string): Promise<RunRow> {
  try {
    const summary = await loadRunSummary(stateDir, runId);
    return {
      runId,
      mission: summary.mission,
      status: summary.status,
      startedAt: summary.startedAt,
      durationMs: summary.durationMs,
      tokens: summary.tokens,
      costPico: summary.costPico,
      unpriced: summary.unpriced,
      forkedFrom: summary.forkedFrom,
    };
  } catch (error) {
    return {
      runId,
      mission: '',
      status: 'corrupt',
      startedAt: '',
      durationMs: 0,
      tokens: 0,
      costPico: 0n,
      unpriced: false,
      forkedFrom: null,
      problem: reasonOf(error),
    };
  }
}

/**
 * Whether a live process has the run's journal open (its `writer.pid` names a running
 * process): such a run is `running` and must not be resumed by another process.
 */
export async function journalWriterAlive(runDir: string): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(join(runDir, WRITER_PID_FILE_NAME), 'utf8');
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
