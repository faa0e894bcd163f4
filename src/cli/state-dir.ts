import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { makeDirectory } from '../base/make-directory.ts';
import { UsageError } from '../base/errors.ts';
import { resolveStateDir, runsDirectory, STATE_DIRECTORY_ENV } from '../journal/paths.ts';
import { kindOf, projectStateDir } from '../run/find-run.ts';
import type { CliIo } from './io.ts';

/**
 * The state directory for commands that read runs without loading the project: `--state-dir`,
 * then `SORTIE_HOME`, then `.sortie/` of DIR (of its folder when DIR is an .hcl file). One that
 * exists but is not a folder is a usage error; a missing one simply holds no runs yet.
 */
export function stateDirFor(directory: string, stateDir: string | undefined, io: CliIo): string {
  const resolved = projectStateDir(directory, io.env, process.cwd(), stateDir);
  if (kindOf(resolved) === 'file') {
    throw stateDirError(resolved, 'it is a file, not a folder', stateDir, io.env);
  }
  return resolved;
}

/**
 * The state directory of a command that records runs (`--state-dir`, then `SORTIE_HOME`, then
 * `<project>/.sortie`) with `STATE/runs` made (parents included) before anything starts, or a
 * usage error saying why it cannot be.
 */
export async function recordingStateDir(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  projectRoot: string,
  cwd: string,
): Promise<string> {
  const stateDir = resolveStateDir({ stateDir: flag, env, projectRoot, cwd });
  try {
    await makeDirectory(runsDirectory(stateDir));
  } catch (error) {
    if (!isFileSystemError(error)) throw error;
    // makeDirectory's ENOTDIR names the file standing where a folder should be.
    const problem =
      error.code !== 'ENOTDIR'
        ? describeFileSystemError(error)
        : error.path === stateDir
          ? 'it is a file, not a folder'
          : `${error.path} is a file, not a folder`;
    throw stateDirError(stateDir, problem, flag, env);
  }
  return stateDir;
}

/** `cannot use the state directory DIR (from --state-dir): PROBLEM`, with a way out. */
function stateDirError(
  stateDir: string,
  problem: string,
  flag: string | undefined,
  env: Record<string, string | undefined>,
): UsageError {
  const source =
    flag !== undefined && flag !== ''
      ? ' (from --state-dir)'
      : (env[STATE_DIRECTORY_ENV] ?? '') !== ''
        ? ` (from ${STATE_DIRECTORY_ENV})`
        : '';
  return new UsageError(
    `cannot use the state directory ${stateDir}${source}: ${problem}`,
    `point --state-dir or ${STATE_DIRECTORY_ENV} at a folder sortie can write`,
  );
}
