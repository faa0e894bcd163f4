import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeFileSystemError, isFileSystemError } from '../../src/base/file-system-error.ts';
import { makeDirectory, makeNewDirectory } from '../../src/base/make-directory.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const root = temporaryDirectorySync('make-directory');

/** The error makeDirectory rejects with, described. */
async function failure(path: string): Promise<string> {
  try {
    await makeDirectory(path);
  } catch (error) {
    if (isFileSystemError(error)) return `${error.code} ${describeFileSystemError(error)}`;
    throw error;
  }
  return 'no error';
}

describe('makeDirectory', () => {
  it('creates missing parents and accepts a folder that exists', async () => {
    const path = join(root, 'a', 'b', 'c');
    await makeDirectory(path);
    await makeDirectory(path);
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it('names the file that stands where a folder should be', async () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    expect(await failure(join(file, 'below', 'deeper'))).toBe(
      `ENOTDIR cannot create the folder ${file}: a part of the path is a file, not a folder`,
    );
  });

  // Node's own recursive mkdir loops forever on this answer of procfs.
  it.runIf(existsSync('/proc/self'))(
    'fails at once where procfs cannot hold a folder',
    async () => {
      expect(await failure('/proc/sortie-test/runs')).toBe(
        'ENOENT cannot create the folder /proc/sortie-test: this file system does not allow creating it',
      );
    },
  );
});

describe('makeNewDirectory', () => {
  it('creates a folder, its missing parents, and accepts one that exists', async () => {
    const path = join(root, 'new', 'x', 'y');
    await Promise.all([makeNewDirectory(path), makeNewDirectory(path)]);
    await makeNewDirectory(path);
    expect(statSync(path).isDirectory()).toBe(true);
  });

  it('names the file that stands where the folder or a parent should be', async () => {
    const file = join(root, 'new-file');
    writeFileSync(file, 'x');
    const failures = await Promise.all(
      [file, join(file, 'below')].map((path) =>
        makeNewDirectory(path).then(
          () => 'no error',
          (error: unknown) =>
            isFileSystemError(error) ? `${error.code} ${describeFileSystemError(error)}` : error,
        ),
      ),
    );
    const message = `ENOTDIR cannot create the folder ${file}: a part of the path is a file, not a folder`;
    expect(failures).toEqual([message, message]);
  });
});
