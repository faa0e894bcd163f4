/**
 * `mkdir -p` that always ends. Node's `mkdir(path, { recursive: true })` spins forever (at
 * full CPU, in C++ or on a libuv thread) when the kernel answers ENOENT for a folder whose
 * parent exists, as procfs does for `/proc/x`: it creates the parent (EEXIST), retries the
 * child (ENOENT) and loops. Here each missing folder is created once, parent first, and the
 * first failure is thrown with its own code and path.
 */
import { mkdirSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/** Creations of `makeNewDirectory` under way, by path: callers in the same tick share one. */
const creating = new Map<string, Promise<void>>();

/**
 * `makeDirectory` for a folder that is usually new and whose parent usually exists (a run's
 * folder): one `mkdir`, made synchronously — a metadata call of microseconds costs less CPU
 * than a trip through libuv's thread pool — and shared with callers asking for the same path
 * in the same tick (the journal and the run's services). A folder that exists costs a `stat`
 * more; a missing parent falls back to `makeDirectory`.
 */
export function makeNewDirectory(path: string): Promise<void> {
  const absolute = resolve(path);
  const pending = creating.get(absolute);
  if (pending !== undefined) return pending;
  const made = createOnce(absolute).finally(() => creating.delete(absolute));
  creating.set(absolute, made);
  return made;
}

async function createOnce(path: string): Promise<void> {
  try {
    mkdirSync(path);
    return;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') {
      const kind = await kindOf(path);
      if (kind === 'directory') return;
      if (kind === 'other') throw notADirectory(path);
    } else if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw error;
    }
  }
  // A part of the path is missing or is a file: the walk creates or names it.
  await makeDirectory(path);
}

/** Creates `path` and its missing parents; resolves when it is a folder. */
export async function makeDirectory(path: string): Promise<void> {
  const missing: string[] = [];
  let current = resolve(path);
  for (;;) {
    const kind = await kindOf(current);
    if (kind === 'directory') break;
    if (kind === 'other') throw notADirectory(current);
    const parent = dirname(current);
    if (parent === current) break;
    missing.push(current);
    current = parent;
  }
  for (const directory of missing.reverse()) {
    try {
      await mkdir(directory);
    } catch (error) {
      // Another process may have made it in between; anything else is final.
      if (errorCode(error) !== 'EEXIST' || (await kindOf(directory)) !== 'directory') throw error;
    }
  }
}

async function kindOf(path: string): Promise<'directory' | 'other' | 'missing'> {
  try {
    return (await stat(path)).isDirectory() ? 'directory' : 'other';
  } catch (error) {
    // ENOTDIR: a part further up is a file; walking up finds it and names it.
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The error `mkdir` itself gives when a part of the path is a file. */
function notADirectory(path: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`ENOTDIR: not a directory, mkdir '${path}'`);
  error.code = 'ENOTDIR';
  error.syscall = 'mkdir';
  error.path = path;
  return error;
}
