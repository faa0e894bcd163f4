/**
 * Where sortie keeps state: the state directory (`.sortie/` of the project unless moved) and
 * the layout inside it. Names used as path segments are checked so none can escape it.
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { UsageError } from '../base/errors.ts';
import { UnknownRunError } from './journal-errors.ts';

/** The state directory's name inside a project. */
export const STATE_DIRECTORY_NAME = '.sortie';
/** The environment variable that moves the state directory. */
export const STATE_DIRECTORY_ENV = 'SORTIE_HOME';

/** What decides the state directory, strongest first. */
export interface StateDirectorySources {
  /** `--state-dir`, relative to `cwd`. */
  stateDir?: string;
  env?: Record<string, string | undefined>;
  /** Absolute project root (Config.root). */
  projectRoot: string;
  /** Base of relative paths; defaults to the process's working directory. */
  cwd?: string;
}

/** `--state-dir` > `SORTIE_HOME` > `<project root>/.sortie`, as an absolute path. */
export function resolveStateDir(sources: StateDirectorySources): string {
  const cwd = sources.cwd ?? process.cwd();
  const flag = sources.stateDir;
  if (flag !== undefined && flag !== '') return resolve(cwd, flag);
  const fromEnv = sources.env?.[STATE_DIRECTORY_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return resolve(cwd, fromEnv);
  return join(resolve(cwd, sources.projectRoot), STATE_DIRECTORY_NAME);
}

/** The folder and the journal of one run. */
export interface RunPaths {
  dir: string;
  journal: string;
}

/** The folder holding every run. */
export function runsDirectory(stateDir: string): string {
  return join(stateDir, 'runs');
}

/** `runs/RUN_ID/` and its `journal.jsonl`. */
export function runPaths(stateDir: string, runId: string): RunPaths {
  const dir = join(runsDirectory(stateDir), checkSegment(runId, 'run id'));
  return { dir, journal: join(dir, JOURNAL_FILE_NAME) };
}

/** The journal's file name inside a run folder. */
export const JOURNAL_FILE_NAME = 'journal.jsonl';
/** The journal's blob folder's name inside a run folder (beside the journal). */
export const BLOBS_DIRECTORY_NAME = 'blobs';
/** The writer-pid file's name inside a run folder. */
export const WRITER_PID_FILE_NAME = 'writer.pid';

/** Every run id in the state directory (unsorted); none when there is no `runs/` yet. */
export async function listRunIds(stateDir: string): Promise<string[]> {
  try {
    const entries = await readdir(runsDirectory(stateDir), { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** The run whose id equals `idOrPrefix` or is the only one starting with it. */
export async function findRunId(stateDir: string, idOrPrefix: string): Promise<string> {
  const ids = await listRunIds(stateDir);
  if (ids.includes(idOrPrefix)) return idOrPrefix;
  const matches = idOrPrefix === '' ? [] : ids.filter((id) => id.startsWith(idOrPrefix)).sort();
  if (matches.length === 1 && matches[0] !== undefined) return matches[0];
  throw new UnknownRunError(idOrPrefix, matches);
}

/** Whether a file-system error means "no such file". */
export function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

// Run ids and names come from the command line and from HCL: one plain segment each.
function checkSegment(value: string, what: string): string {
  if (
    value === '' ||
    value === '.' ||
    value === '..' ||
    /[/\\\0]/.test(value) ||
    isAbsolute(value)
  ) {
    throw new UsageError(`invalid ${what} "${value}": it must be a plain name without slashes`);
  }
  return value;
}
