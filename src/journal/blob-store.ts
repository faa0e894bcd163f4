/**
 * The blob folder of a run (`runs/RUN_ID/blobs/`): one file per distinct long string of its
 * journal, named by the sha256 of its UTF-8 bytes and holding exactly those bytes. A blob is
 * written (to a temporary name, synced, renamed) before the journal line that references it,
 * so a line on disk always finds its blobs; a crash in between leaves at most an unreferenced
 * blob or a temporary file, which the next writer removes.
 */
import { readFileSync } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobReferenceError, type BlobSource } from './blob-resolve.ts';
import { isMissing } from './paths.ts';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const TEMPORARY_SUFFIX = '.tmp';

/** The file of blob `sha256` in `directory`. */
export function blobPath(directory: string, sha256: string): string {
  return join(directory, `${sha256}.txt`);
}

/** Writes a run's blobs; each distinct blob once. */
export class BlobWriter {
  private readonly known = new Set<string>();
  private made = false;

  constructor(readonly directory: string) {}

  /** Removes temporary files a crash left (called before the first write of a session). */
  async removeLeftovers(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.directory);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const leftovers = names.filter((name) => name.endsWith(TEMPORARY_SUFFIX));
    await Promise.all(leftovers.map((name) => rm(join(this.directory, name), { force: true })));
  }

  /** Makes sure blob `sha256` holds `text` on disk (synced) before it returns. */
  async write(sha256: string, text: string): Promise<void> {
    if (this.known.has(sha256)) return;
    const path = blobPath(this.directory, sha256);
    if (!(await exists(path))) {
      if (!this.made) await mkdir(this.directory, { recursive: true });
      this.made = true;
      const temporary = `${path}.${process.pid}${TEMPORARY_SUFFIX}`;
      const handle = await open(temporary, 'w');
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, path);
    }
    this.known.add(sha256);
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** Reads a run's blobs: checks each once per reader, reads a text whenever it is asked for. */
export class BlobReader implements BlobSource {
  private readonly checked = new Set<string>();

  constructor(readonly directory: string) {}

  async check(sha256: string, bytes: number): Promise<void> {
    if (this.checked.has(sha256)) return;
    const path = this.pathOf(sha256);
    let size: number;
    try {
      size = (await stat(path)).size;
    } catch (error) {
      if (isMissing(error)) throw new BlobReferenceError(`its blob ${path} is missing`);
      throw error;
    }
    checkSize(path, size, bytes);
    this.checked.add(sha256);
  }

  // Synchronous: a string is read where it is first used, which cannot wait.
  readNow(sha256: string, bytes: number): string {
    const path = this.pathOf(sha256);
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch (error) {
      if (isMissing(error)) throw new BlobReferenceError(`its blob ${path} is missing`);
      throw error;
    }
    checkSize(path, content.length, bytes);
    return content.toString('utf8');
  }

  private pathOf(sha256: string): string {
    if (!SHA256_HEX.test(sha256)) {
      throw new BlobReferenceError(`"${sha256}" is not a blob name (64 hex digits)`);
    }
    return blobPath(this.directory, sha256);
  }
}

function checkSize(path: string, size: number, bytes: number): void {
  if (size !== bytes) {
    throw new BlobReferenceError(
      `its blob ${path} has ${size} bytes, the journal expects ${bytes}`,
    );
  }
}
