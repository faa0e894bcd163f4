/**
 * An append-only file of texts in a fresh folder of the run folder, each read back by where it
 * lies. What a finished item leaves for later questions (its commander's conversation, its
 * knowledge record) lives here, so a 100,000-item iteration keeps two numbers per item in
 * memory instead of the text or its parsed objects.
 *
 * Reads and writes are synchronous: appends are gathered in memory and written in one write
 * per `FLUSH_BYTES` (a write per record, two per finished item, was a visible share of an
 * item's CPU), and a read of anything not yet written writes it first, so `append` and `read`
 * stay plain calls with no queue of pending writes to wait for (see docs/decisions.md,
 * "Finished commanders on disk"). The file serves this process's questions only (a resumed run rebuilds it from the
 * journal), so texts not yet written when the process dies lose nothing.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Appended text held in memory until this many bytes wait (then one write). */
const FLUSH_BYTES = 64 * 1024;

/** Where one text lies in the file. */
export interface TextPosition {
  offset: number;
  length: number;
}

/** An append-only file `<parent>/<prefix>XXXXXX/<name>`, created on first append, removed by `dispose`. */
export class AppendFile {
  private folder: string | undefined;
  private descriptor: number | undefined;
  /** Bytes appended, written or not. */
  private size = 0;
  /** Bytes on disk; the rest waits in `pending`. */
  private written = 0;
  private pending: string[] = [];
  private pendingBytes = 0;

  constructor(
    private readonly parent: string,
    private readonly prefix: string,
    private readonly name: string,
  ) {}

  /** Appends `text`; returns where it lies. Opens the file on first use. */
  append(text: string): TextPosition {
    this.open();
    const length = Buffer.byteLength(text, 'utf8');
    const position = { offset: this.size, length };
    this.pending.push(text);
    this.pendingBytes += length;
    this.size += length;
    if (this.pendingBytes >= FLUSH_BYTES) this.flush();
    return position;
  }

  /** Writes what `append` gathered (reads call it; `path` readers in tests too). */
  flush(): void {
    if (this.descriptor === undefined || this.pendingBytes === 0) return;
    const bytes = Buffer.from(this.pending.join(''), 'utf8');
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(
        this.descriptor,
        bytes,
        written,
        bytes.length - written,
        this.written + written,
      );
    }
    this.written += bytes.length;
    this.pending = [];
    this.pendingBytes = 0;
  }

  /** The text at `position`. */
  read(position: TextPosition): string {
    return this.bytes(position.offset, position.length).toString('utf8');
  }

  /** Everything appended so far, for reading many texts at once (`textAt` cuts one out). */
  readAll(): Buffer {
    return this.descriptor === undefined ? Buffer.alloc(0) : this.bytes(0, this.size);
  }

  /** The file's path, once something was appended (for tests); what was appended is written. */
  get path(): string | undefined {
    this.flush();
    return this.folder === undefined ? undefined : join(this.folder, this.name);
  }

  /** Closes and removes the file and its folder; later appends start a new one. */
  dispose(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.descriptor = undefined;
    this.folder = undefined;
    this.size = 0;
    this.written = 0;
    this.pending = [];
    this.pendingBytes = 0;
  }

  private bytes(offset: number, length: number): Buffer {
    if (this.descriptor === undefined) throw new Error(`${this.name} is not open`);
    if (offset + length > this.written) this.flush();
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
