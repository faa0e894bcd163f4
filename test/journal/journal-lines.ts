/** Readers of the lines a journal test's files hold, waiting on I/O rounds rather than time. */
import { readFile } from 'node:fs/promises';

/** The non-empty lines of a file, '' when it is missing. */
export async function fileLines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch(() => '');
  return text.split('\n').filter((line) => line !== '');
}

/** Lets pending I/O callbacks run (real setImmediate; tests fake only setTimeout). */
export async function settleIo(rounds = 20): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Waits (by I/O rounds, never by time) until the file has `count` lines. */
export async function waitForLines(path: string, count: number): Promise<string[]> {
  for (let round = 0; round < 500; round += 1) {
    const lines = await fileLines(path);
    if (lines.length >= count) return lines;
    await settleIo(1);
  }
  return fileLines(path);
}
