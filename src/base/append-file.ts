/**
 * An append-only file of texts in a fresh folder of the run folder, each read back by where it
 * lies. What a finished item leaves for later questions (its commander's conversation, its
 * knowledge record) lives here, so a 100,000-item iteration keeps two numbers per item in
 * memory instead of the text or its parsed objects.
 *
 * Reads and writes are synchronous: one short write per record and one read per question, both
 * against the page cache, keep `append` and `read` plain calls with no queue of pending writes
 * to wait for (see docs/decisions.md, "Finished commanders on disk").
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Where one text lies in the file. */
export interface TextPosition {
  offset: number;
  length: number;
}

/** An append-only file `<parent>/<prefix>XXXXXX/<name>`, created on first append, removed by `dispose`. */
export class AppendFile {
  private folder: string | undefined;
  private descriptor: number | undefined;
  private size = 0;

  constructor(
    private readonly parent: string,
    private readonly prefix: string,
    private readonly name: string,
  ) {}

  /** Appends `text`; returns where it lies. Opens the file on first use. */
  append(text: string): TextPosition {
    const bytes = Buffer.from(text, 'utf8');
    const descriptor = this.open();
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(descriptor, bytes, written, bytes.length - written, this.size + written);
    }
    const position = { offset: this.size, length: bytes.length };
    this.size += bytes.length;
    return position;
  }

  /** The text at `position`. */
  read(position: TextPosition): string {
    return this.bytes(position.offset, position.length).toString('utf8');
  }

  /** Everything appended so far, for reading many texts at once (`textAt` cuts one out). */
  readAll(): Buffer {
    return this.descriptor === undefined ? Buffer.alloc(0) : this.bytes(0, this.size);
  }

  /** The file's path, once something was appended (for tests). */
  get path(): string | undefined {
    return this.folder === undefined ? undefined : join(this.folder, this.name);
  }

  /** Closes and removes the file and its folder; later appends start a new one. */
  dispose(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.descriptor = undefined;
    this.folder = undefined;
    this.size = 0;
  }

  private bytes(offset: number, length: number): Buffer {
    if (this.descriptor === undefined) throw new Error(`${this.name} is not open`);
    const bytes = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const count = readSync(this.descriptor, bytes, read, length - read, offset + read);
      if (count === 0) throw new Error(`${this.name} ended early`);
      read += count;
    }
    return bytes;
  }

  private open(): number {
    if (this.descriptor !== undefined) return this.descriptor;
    mkdirSync(this.parent, { recursive: true });
    this.folder = mkdtempSync(join(this.parent, this.prefix));
    this.descriptor = openSync(join(this.folder, this.name), 'w+');
    return this.descriptor;
  }
}

/** The text at `position` of a buffer from `readAll`. */
export function textAt(all: Buffer, position: TextPosition): string {
  return all.toString('utf8', position.offset, position.offset + position.length);
}

/**
 * Removes the `<parent>/<prefix>XXXXXX` folders of append files whose process ended without
 * `dispose` (a crash or `kill -9`): a resumed run rebuilds what they held from the journal.
 */
export async function removeLeftAppendFolders(
  parent: string,
  prefixes: readonly string[],
): Promise<void> {
  const names = await readdir(parent).catch(() => [] as string[]);
  const left = names.filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
  await Promise.all(left.map((name) => rm(join(parent, name), { recursive: true, force: true })));
}
