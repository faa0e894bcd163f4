/**
 * Reading files of a slot without ever waiting on one that is no regular file: a FIFO opened
 * for reading blocks until a writer comes (for ever, in a slot), a device may never end.
 * Opening without blocking and checking the open handle (not the path, which could be swapped
 * between a stat and the open) keeps every read to regular files.
 */
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

// O_NONBLOCK makes opening a FIFO return at once (reads of regular files are unaffected);
// Windows has no such flag and no FIFOs to open.
const NON_BLOCKING = (constants.O_NONBLOCK as number | undefined) ?? 0;

/** Open flags for a read that never waits on a FIFO. */
export const READ_FLAGS = constants.O_RDONLY | NON_BLOCKING;

/**
 * Open flags for a write (replace or append) that never waits: a FIFO without a reader fails
 * with ENXIO instead of blocking until one comes.
 */
export function writeFlags(append: boolean): number {
  const mode = append ? constants.O_APPEND : constants.O_TRUNC;
  return constants.O_WRONLY | constants.O_CREAT | mode | NON_BLOCKING;
}

/** The answer for a path that is no regular file (a FIFO, a socket, a device). */
export function notRegularFile(relative: string): string {
  return `"${relative}" is not a regular file: the file tools read and write regular files only`;
}

/** Opens a file for reading; undefined (and nothing left open) when it is no regular file. */
export async function openRegularFile(host: string): Promise<FileHandle | undefined> {
  const handle = await open(host, READ_FLAGS);
  try {
    if ((await handle.stat()).isFile()) return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
  await handle.close();
  return undefined;
}

/** At most `limit` bytes from the start of a regular file; undefined when it is no regular file. */
export async function readRegularFile(host: string, limit: number): Promise<Buffer | undefined> {
  const handle = await openRegularFile(host);
  if (handle === undefined) return undefined;
  try {
    const size = Math.min(limit, (await handle.stat()).size);
    const buffer = Buffer.alloc(size);
    let total = 0;
    while (total < size) {
      const { bytesRead } = await handle.read(buffer, total, size - total, total);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    return buffer.subarray(0, total);
  } finally {
    await handle.close();
  }
}
