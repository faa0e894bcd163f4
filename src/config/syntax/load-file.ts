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
  if (requested.includes('\0')) return fail('the path contains a NUL byte');
  if (isAbsolute(requested) || win32.isAbsolute(requested))
    return fail('absolute paths are not allowed');
  const written = requested.startsWith('@/') ? requested.slice(2) : requested;
  const relativePath = posix.normalize(written === '' ? '.' : written).replace(/\/$/, '');
  if (relativePath === '.' || relativePath === '') {
    return fail('resolves to the project root itself: .');
  }
  if (relativePath === '..' || relativePath.startsWith('../')) {
    return fail(`escapes the project root: ${relativePath}`);
  }
  if (!loadableExtensions.has(posix.extname(relativePath).toLowerCase())) {
    return fail('only .md and .txt files can be loaded');
  }
  const absolutePath = join(root, relativePath);
  let realPath: string;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    realPath = realpathSync(absolutePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return fail(`file not found: ${relativePath}`);
    return fail(`cannot read ${relativePath}: ${errorCode(error)}`);
  }
  if (!isInside(realRoot, realPath)) return fail(`escapes the project root: ${relativePath}`);
  try {
    if (!statSync(realPath).isFile()) return fail(`not a file: ${relativePath}`);
    return { ok: true, text: readFileSync(realPath, 'utf8'), relativePath };
  } catch (error) {
    return fail(`cannot read ${relativePath}: ${errorCode(error)}`);
  }
}

function isInside(root: string, path: string): boolean {
  const fromRoot = relative(root, path);
  return fromRoot !== '' && fromRoot.split(sep)[0] !== '..' && !isAbsolute(fromRoot);
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unreadable';
}
