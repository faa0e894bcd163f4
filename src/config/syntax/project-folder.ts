import { statSync } from 'node:fs';
import { posix } from 'node:path';
import { errorCode, locateInsideRoot, normalizeInsideRoot, pathProblem } from './load-file.ts';

/** A folder of the project (a packet's `path`), or the message to show at the attribute. */
export type FolderResult = { ok: true; relativePath: string } | { ok: false; message: string };

/**
 * Where a folder path written in a block lands, without touching the disk: `@/x` is `x` from the
 * project root; `x`, `./x` and `../x` are relative to the folder of the declaring file (as the
 * reference runtime resolves packet paths). Absolute paths, paths leaving the root and the root
 * itself are refused like `load()`'s.
 */
export function projectFolderPath(fromFile: string, requested: string): FolderResult {
  const fail = (problem: string): FolderResult => folderProblem(requested, problem);
  if (requested === '') return fail('the path is empty');
  const problem = pathProblem(requested);
  if (problem !== undefined) return fail(problem);
  const joined = requested.startsWith('@/')
    ? requested.slice(2)
    : posix.join(posix.dirname(fromFile), requested);
  const normalized = normalizeInsideRoot(joined);
  return normalized.ok ? normalized : fail(normalized.problem);
}

/**
 * `projectFolderPath`, then the disk: the folder must exist, be a directory, and its real path
 * (symbolic links resolved) must lie inside the project root. Messages name root-relative paths.
 */
export function resolveProjectFolder(
  root: string,
  fromFile: string,
  requested: string,
): FolderResult {
  const path = projectFolderPath(fromFile, requested);
  if (!path.ok) return path;
  const fail = (problem: string): FolderResult => folderProblem(requested, problem);
  const located = locateInsideRoot(root, path.relativePath, 'folder');
  if (!located.ok) return fail(located.problem);
  try {
    if (!statSync(located.realPath).isDirectory())
      return fail(`not a folder: ${path.relativePath}`);
  } catch (error) {
    return fail(`cannot read ${path.relativePath}: ${errorCode(error)}`);
  }
  return path;
}

function folderProblem(requested: string, problem: string): FolderResult {
  return { ok: false, message: `path ${JSON.stringify(requested)}: ${problem}` };
}
