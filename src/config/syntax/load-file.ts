import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, posix, relative, sep, win32 } from 'node:path';

/** The outcome of `load(path)`: the text, or a message to show at the call's position. */
export type LoadResult =
  { ok: true; text: string; relativePath: string } | { ok: false; message: string };

const loadableExtensions = new Set(['.md', '.txt']);

/**
 * The rules of `load(path)` (config.md "Functions > load"). `./x`, `../x`, bare `x` and `@/x`
 * resolve against the project root, never the working directory; only `.md`/`.txt` files
 * inside the root (real path, symbolic links resolved) are read. Messages name the path as
 * written and relative to the root, never an absolute host path.
 */
export function loadTextFile(root: string, requested: string): LoadResult {
  const call = `load(${JSON.stringify(requested)})`;
  const fail = (problem: string): LoadResult => ({ ok: false, message: `${call}: ${problem}` });
  const problem = pathProblem(requested);
  if (problem !== undefined) return fail(problem);
  const written = requested.startsWith('@/') ? requested.slice(2) : requested;
  const normalized = normalizeInsideRoot(written);
  if (!normalized.ok) return fail(normalized.problem);
  const { relativePath } = normalized;
  if (!loadableExtensions.has(posix.extname(relativePath).toLowerCase())) {
    return fail('only .md and .txt files can be loaded');
  }
  const located = locateInsideRoot(root, relativePath, 'file');
  if (!located.ok) return fail(located.problem);
  try {
    if (!statSync(located.realPath).isFile()) return fail(`not a file: ${relativePath}`);
    return { ok: true, text: readFileSync(located.realPath, 'utf8'), relativePath };
  } catch (error) {
    return fail(`cannot read ${relativePath}: ${errorCode(error)}`);
  }
}

/** What is wrong with a path as written before it is resolved (NUL byte, absolute), if anything. */
export function pathProblem(requested: string): string | undefined {
  if (requested.includes('\0')) return 'the path contains a NUL byte';
  if (isAbsolute(requested) || win32.isAbsolute(requested)) return 'absolute paths are not allowed';
  return undefined;
}

/**
 * A root-relative path normalized (`a/./b/../c` → `a/c`, no trailing `/`), refused when it is
 * the root itself or climbs out of it.
 */
export function normalizeInsideRoot(
  path: string,
): { ok: true; relativePath: string } | { ok: false; problem: string } {
  const relativePath = posix.normalize(path === '' ? '.' : path).replace(/\/$/, '');
  if (relativePath === '.' || relativePath === '') {
    return { ok: false, problem: 'resolves to the project root itself: .' };
  }
  if (relativePath === '..' || relativePath.startsWith('../')) {
    return { ok: false, problem: `escapes the project root: ${relativePath}` };
  }
  return { ok: true, relativePath };
}

/**
 * The real path (symbolic links resolved) of a root-relative path, refused when it does not
 * exist or lies outside the root's real path.
 */
export function locateInsideRoot(
  root: string,
  relativePath: string,
  kind: 'file' | 'folder',
): { ok: true; realPath: string } | { ok: false; problem: string } {
  let realPath: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    realPath = realpathSync(join(root, relativePath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: false, problem: `${kind} not found: ${relativePath}` };
    return { ok: false, problem: `cannot read ${relativePath}: ${errorCode(error)}` };
  }
  if (!isInside(realRoot, realPath)) {
    return { ok: false, problem: `escapes the project root: ${relativePath}` };
  }
  return { ok: true, realPath };
}

function isInside(root: string, path: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot !== '' && fromRoot.split(sep)[0] !== '..' && !isAbsolute(fromRoot);
}

/** The error code of a failed file-system call, for messages. */
export function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unreadable';
}
