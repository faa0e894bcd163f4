/**
 * Finding a run by id (or unambiguous prefix) from any folder: in the state directory of the
 * folder given (or `--state-dir`), else in the user-wide run index (journal/run-index.ts).
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import { UnknownRunError } from '../journal/journal-errors.ts';
import { findRunId, listRunIds, resolveStateDir, runPaths } from '../journal/paths.ts';
import { readRunIndex, runIndexPath, type RunIndexEntry } from '../journal/run-index.ts';

/** Where to look for a run. Every field is optional: `findRun(id)` looks from the current folder. */
export interface RunSearch {
  /** `--state-dir`: look only there (relative to `cwd`). */
  stateDir?: string;
  /** The project directory or .hcl file given on the command line (default: `cwd`). */
  directory?: string;
  /** SORTIE_HOME, XDG_STATE_HOME, HOME (default: the process's environment). */
  env?: Record<string, string | undefined>;
  cwd?: string;
}

/** A run found: its id, state directory, journal, and the project it was started from. */
export interface FoundRun {
  runId: string;
  stateDir: string;
  journal: string;
  /** The project directory or .hcl file (absolute) when the run index knows it. */
  project: string | undefined;
}

/**
 * The run matching an id or unambiguous prefix, in the state directory of the folder given
 * (or `--state-dir`, then only there) or in the run index. An unknown id is a usage error
 * naming the places searched; an ambiguous prefix lists the candidates.
 */
export async function findRun(idOrPrefix: string, search: RunSearch = {}): Promise<FoundRun> {
  const env = search.env ?? process.env;
  const cwd = search.cwd ?? process.cwd();
  const indexPath = runIndexPath(env);
  if (search.stateDir !== undefined && search.stateDir !== '') {
    const stateDir = resolve(cwd, search.stateDir);
    const runId = await findRunInStateDir(stateDir, idOrPrefix);
    const indexed = indexPath === undefined ? [] : await readRunIndex(indexPath);
    const entry = indexed.find((run) => run.runId === runId && run.stateDir === stateDir);
    return found(runId, stateDir, entry?.project);
  }
  const local = projectStateDir(search.directory ?? cwd, env, cwd);
  const runs = await knownRuns(local, indexPath);
  const matches = runs.has(idOrPrefix)
    ? [idOrPrefix]
    : idOrPrefix === ''
      ? []
      : [...runs.keys()].filter((runId) => runId.startsWith(idOrPrefix)).sort();
  const [only] = matches;
  const where = only === undefined ? undefined : runs.get(only);
  if (matches.length === 1 && where !== undefined) {
    return found(where.runId, where.stateDir, where.project);
  }
  if (matches.length > 1) throw new UnknownRunError(idOrPrefix, matches);
  const places = indexPath === undefined ? local : `${local} or the run index ${indexPath}`;
  throw new UsageError(
    `no run "${idOrPrefix}" in ${places}`,
    'list the runs with `sortie runs`, or point --state-dir at the right place',
  );
}

/** A run known to this folder or to the run index. */
export interface KnownRun {
  runId: string;
  stateDir: string;
  /** The project it was started from, when the run index knows it. */
  project: string | undefined;
}

/**
 * Every run of a state directory and of the run index (when there is one) whose folder still
 * exists, by id: the index's runs in the order indexed, then the state directory's others.
 * A run in both keeps the state directory found here and the project the index knows.
 */
export async function knownRuns(
  stateDir: string,
  indexPath: string | undefined,
): Promise<Map<string, KnownRun>> {
  const runs = new Map<string, KnownRun>();
  const indexed = indexPath === undefined ? [] : await readRunIndex(indexPath);
  for (const entry of indexed) {
    if (runFolderExists(entry)) runs.set(entry.runId, entry);
  }
  for (const runId of await listRunIds(stateDir)) {
    const entry = runs.get(runId);
    const project = entry?.stateDir === stateDir ? entry.project : undefined;
    runs.set(runId, { runId, stateDir, project });
  }
  return runs;
}

/**
 * The run id matching an id or unambiguous prefix in one state directory; an unknown one is a
 * usage error naming the state directory searched.
 */
export async function findRunInStateDir(stateDir: string, idOrPrefix: string): Promise<string> {
  try {
    return await findRunId(stateDir, idOrPrefix);
  } catch (error) {
    if (error instanceof UnknownRunError && error.candidates.length === 0) {
      throw new UsageError(
        `no run "${idOrPrefix}" in ${stateDir}`,
        'list the runs with `sortie runs [DIR]`, or point --state-dir at the right place',
      );
    }
    throw error;
  }
}

/** Whether an index record's run folder still exists (a deleted run is not found). */
function runFolderExists(entry: RunIndexEntry): boolean {
  try {
    return kindOf(runPaths(entry.stateDir, entry.runId).dir) === 'folder';
  } catch {
    return false; // not a plain run id: a damaged record
  }
}

function found(runId: string, stateDir: string, project: string | undefined): FoundRun {
  return { runId, stateDir, journal: runPaths(stateDir, runId).journal, project };
}

/**
 * The state directory of a project: `stateDir` (`--state-dir`) when given, else SORTIE_HOME,
 * else `.sortie/` of the folder (of its folder when it is an .hcl file).
 */
export function projectStateDir(
  directory: string,
  env: Record<string, string | undefined>,
  cwd: string,
  stateDir?: string,
): string {
  const absolute = resolve(cwd, directory);
  const projectRoot = kindOf(absolute) === 'file' ? dirname(absolute) : absolute;
  return resolveStateDir({ stateDir, env, projectRoot, cwd });
}

/** Whether `path` is a file, a folder, or missing. */
export function kindOf(path: string): 'file' | 'folder' | 'missing' {
  try {
    return statSync(path).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'missing';
  }
}
