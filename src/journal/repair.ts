/**
 * Repairs a journal whose last write was cut short, before more lines are appended to it: a
 * complete JSON fragment gets its missing newline, anything else is cut off (the reader
 * ignores it anyway, but appending after it would turn it into corruption mid-file). A last
 * line whose checksum does not match is cut off the same way: the reader ignores it too.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { checkLine } from './line-checksum.ts';
import { isMissing } from './paths.ts';

const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;
const RETURN = 0x0d;

/** Returns what was done: nothing, a newline added, or the torn bytes removed. */
export async function repairTornTail(path: string): Promise<'none' | 'terminated' | 'truncated'> {
  let handle;
  try {
    handle = await open(path, 'r+');
  } catch (error) {
    if (isMissing(error)) return 'none';
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return 'none';
    const lineStart = await startOfLastLine(handle, size);
    if (lineStart === size) return (await cutChangedLastLine(handle, size)) ? 'truncated' : 'none';
    const fragment = Buffer.alloc(size - lineStart);
    await handle.read(fragment, 0, fragment.length, lineStart);
    if (isSoundJson(fragment)) {
      await handle.write('\n', size);
      return 'terminated';
    }
    await handle.truncate(lineStart);
    return 'truncated';
  } finally {
    await handle.close();
  }
}

/** Cuts the file's last whole line off when its checksum does not match; says whether it did. */
async function cutChangedLastLine(handle: FileHandle, size: number): Promise<boolean> {
  const lineStart = await startOfLastLine(handle, size - 1);
  const line = Buffer.alloc(size - 1 - lineStart);
  await handle.read(line, 0, line.length, lineStart);
  const withoutReturn = line.at(-1) === RETURN ? line.subarray(0, -1) : line;
  if (checkLine(withoutReturn) !== 'mismatch') return false;
  await handle.truncate(lineStart);
  return true;
}

/** The offset just after the last newline (0 when there is none); `size` when the file ends with one. */
async function startOfLastLine(handle: FileHandle, size: number): Promise<number> {
  let end = size;
  const buffer = Buffer.alloc(CHUNK_BYTES);
  while (end > 0) {
    const start = Math.max(0, end - CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const index = buffer.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (index !== -1) return start + index + 1;
    end = start;
  }
  return 0;
}

/** Valid JSON, and its checksum (when it has one) matches. */
function isSoundJson(fragment: Buffer): boolean {
  const checked = checkLine(fragment);
  if (checked === 'mismatch') return false;
  try {
    JSON.parse(checked === 'unchecked' ? fragment.toString('utf8') : checked);
    return true;
  } catch {
    return false;
  }
}
