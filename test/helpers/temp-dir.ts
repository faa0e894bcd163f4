/**
 * Temporary directories for tests, made and removed in one place: a directory made inside a
 * test (or its beforeEach) is removed when that test finishes; one made at a file's top level
 * or in a beforeAll, when the file's tests are done. Tests never remove them by hand.
 */
import { mkdtempSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, onTestFinished, TestRunner } from 'vitest';

const madeOutsideTests: string[] = [];

// Registered when a test file first imports this module, so (hooks run as a stack) it runs
// after the file's own afterAll hooks have stopped whatever still writes into the folders.
afterAll(async () => {
  await Promise.all(madeOutsideTests.splice(0).map(remove));
});

function remove(dir: string): Promise<void> {
  // Retries: a child process that just ended may still be closing files inside the folder.
  return rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

function removedWhenDone(dir: string): string {
  if (TestRunner.getCurrentTest() === undefined) madeOutsideTests.push(dir);
  else onTestFinished(() => remove(dir));
  return dir;
}

/** A fresh empty directory named `sortie-<prefix>-…` under the OS temp folder. */
export async function temporaryDirectory(prefix = 'test'): Promise<string> {
  return removedWhenDone(await mkdtemp(join(tmpdir(), `sortie-${prefix}-`)));
}

/** `temporaryDirectory` for a file's top level, where no await is wanted. */
export function temporaryDirectorySync(prefix = 'test'): string {
  return removedWhenDone(mkdtempSync(join(tmpdir(), `sortie-${prefix}-`)));
}
