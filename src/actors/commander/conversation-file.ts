/**
 * Finished commanders' conversations on disk: each one JSON text appended to one file of the
 * run folder, read back by position when a question reaches that commander. A 100,000-item
 * iteration with a dependent task keeps 100,000 askable conversations; in memory they grew
 * the heap by about 1.3 KB per item, here they cost two numbers each.
 *
 * Reads and writes are synchronous: one short write per finished commander and one read per
 * question, both against the page cache, keep `record` and `get` plain calls with no queue of
 * pending writes to wait for (see docs/decisions.md, "Finished commanders on disk").
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Where one text lies in the file. */
export interface TextPosition {
  offset: number;
  length: number;
}

/** An append-only file of texts in a fresh folder under `parent`, removed by `dispose`. */
export class ConversationFile {
  private folder: string | undefined;
  private descriptor: number | undefined;
  private size = 0;

  constructor(private readonly parent: string) {}

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
    if (this.descriptor === undefined) throw new Error('the conversation file is not open');
    const bytes = Buffer.allocUnsafe(position.length);
    let read = 0;
    while (read < position.length) {
      const count = readSync(
        this.descriptor,
        bytes,
        read,
        position.length - read,
        position.offset + read,
      );
      if (count === 0) throw new Error('the conversation file ended early');
      read += count;
    }
    return bytes.toString('utf8');
  }

  /** The file's path, once something was appended (for tests). */
  get path(): string | undefined {
    return this.folder === undefined ? undefined : join(this.folder, 'conversations.jsonl');
  }

  /** Closes and removes the file and its folder; later appends start a new one. */
  dispose(): void {
    if (this.descriptor !== undefined) closeSync(this.descriptor);
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
    this.descriptor = undefined;
    this.folder = undefined;
    this.size = 0;
  }

  private open(): number {
    if (this.descriptor !== undefined) return this.descriptor;
    mkdirSync(this.parent, { recursive: true });
    this.folder = mkdtempSync(join(this.parent, 'finished-commanders-'));
    this.descriptor = openSync(join(this.folder, 'conversations.jsonl'), 'w+');
    return this.descriptor;
  }
}
