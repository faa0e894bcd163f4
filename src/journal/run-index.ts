/**
 * The user-wide run index: one JSON line per run started by the CLI, mapping its id to the
 * state directory holding its journal and to its project, so that `sortie runs`, `show`,
 * `replay`, `resume` and `fork` find a run from any folder. Several sortie processes append
 * to it at once: each record is one `appendFile` of one line (O_APPEND keeps whole lines
 * apart), and reading skips what is not a record (a line torn by a crash, or a torn line
 * glued to the next record, whose record is recovered).
 */
import { appendFile, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { makeDirectory } from '../base/make-directory.ts';
import { isMissing, STATE_DIRECTORY_ENV } from './paths.ts';

/** The index's file name inside the sortie home. */
export const RUN_INDEX_FILE_NAME = 'runs.jsonl';

/** One run in the index. */
export interface RunIndexEntry {
  runId: string;
  /** Absolute state directory: the journal is `<stateDir>/runs/<runId>/journal.jsonl`. */
  stateDir: string;
  /** Absolute project directory or .hcl file the run was started from. */
  project: string;
  mission: string;
  /** ISO time the CLI started (or resumed) the run. */
  startedAt: string;
  /** `chat` for a conversation with one agent (`sortie chat`); absent for a mission run. */
  kind?: 'chat';
}

// Every record starts with this, so a record glued after a torn line can be found again.
const RECORD_START = '{"runId":';

/**
 * Where the index lives: `$SORTIE_HOME/runs.jsonl` when SORTIE_HOME is set, else
 * `$XDG_STATE_HOME/sortie/runs.jsonl`, else `$HOME/.local/state/sortie/runs.jsonl`; undefined
 * (no index) when the environment names none of them.
 */
export function runIndexPath(env: Record<string, string | undefined>): string | undefined {
  const home = env[STATE_DIRECTORY_ENV];
  if (home !== undefined && home !== '') return join(resolve(home), RUN_INDEX_FILE_NAME);
  const state = env.XDG_STATE_HOME;
  if (state !== undefined && state !== '') {
    return join(resolve(state), 'sortie', RUN_INDEX_FILE_NAME);
  }
  const user = env.HOME;
  if (user !== undefined && user !== '') {
    return join(resolve(user), '.local', 'state', 'sortie', RUN_INDEX_FILE_NAME);
  }
  return undefined;
}

/** Appends one run to the index (its folder made when missing). */
export async function addToRunIndex(path: string, entry: RunIndexEntry): Promise<void> {
  const record: RunIndexEntry = {
    runId: entry.runId,
    stateDir: entry.stateDir,
    project: entry.project,
    mission: entry.mission,
    startedAt: entry.startedAt,
    ...(entry.kind !== undefined ? { kind: entry.kind } : {}),
  };
  await makeDirectory(dirname(path));
  await appendFile(path, `${JSON.stringify(record)}\n`, 'utf8');
}

/**
 * Every run of the index, once each (a run indexed again, e.g. when resumed, keeps its latest
 * record), in the order first indexed; none when there is no index yet.
 */
export async function readRunIndex(path: string): Promise<RunIndexEntry[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const byId = new Map<string, RunIndexEntry>();
  for (const line of text.split('\n')) {
    const entry = parseRecord(line);
    if (entry !== undefined) byId.set(entry.runId, entry);
  }
  return [...byId.values()];
}

function parseRecord(line: string): RunIndexEntry | undefined {
  const start = line.lastIndexOf(RECORD_START);
  if (start < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.slice(start));
  } catch {
    return undefined;
  }
  return isEntry(value) ? value : undefined;
}

function isEntry(value: unknown): value is RunIndexEntry {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['runId', 'stateDir', 'project', 'mission', 'startedAt'].every(
    (key) => typeof record[key] === 'string' && (key !== 'runId' || record[key] !== ''),
  );
}
