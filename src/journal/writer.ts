/**
 * The run journal writer: an append-only JSONL file with one journaled event per line.
 * Lines are batched and written at least every 200 ms, and at once after the events that end
 * something (tasks, missions, the run), so a crash loses at most the last batch. One file
 * descriptor, one write at a time, in emit order. A batch is appended with one synchronous
 * `write` (a page-cache copy of a few KB costs less CPU than a trip through libuv's thread
 * pool and its promise); a written line survives the process being killed at any moment. The
 * journal is not fsynced (docs/decisions.md, "Journal writer"). Long strings go to the run's
 * blob folder (blob-references.ts), each written and synced before the batch whose lines
 * reference it.
 */
import { appendFileSync, closeSync, openSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeDirectory, makeNewDirectory } from '../base/make-directory.ts';
import { eventJson } from '../base/event-json.ts';
import { isJournaled, UNJOURNALED_TYPES, type MissionEvent } from '../base/events.ts';
import type { EventListener } from '../runtime/event-bus.ts';
import { BLOB_MIN_CHARS, BLOBS_KEY, extractBlobs } from './blob-references.ts';
import { BlobWriter } from './blob-store.ts';
import { JournalClosedError, JournalEncodingError } from './journal-errors.ts';
import { withChecksum } from './line-checksum.ts';
import {
  BLOBS_DIRECTORY_NAME,
  isMissing,
  JOURNAL_FILE_NAME,
  WRITER_PID_FILE_NAME,
} from './paths.ts';
import { repairTornTail } from './repair.ts';

/** The longest a journaled event waits in memory. */
export const JOURNAL_FLUSH_INTERVAL_MS = 200;

/**
 * A batch this long (in UTF-16 units) is written at once, without waiting for the interval: a
 * busy run can gather megabytes in one interval, and joining that many lines into one string
 * costs more than writing 64 KB pieces (figures in bench/README.md).
 */
export const JOURNAL_BATCH_CHARS = 64 * 1024;

/** An open journal. */
export interface JournalWriter {
  readonly path: string;
  /**
   * Pass to `RunOptions.subscribers`; never throws for events it ignores (deltas), which the
   * bus does not hand it (`ignoredTypes`).
   */
  readonly subscriber: EventListener;
  /** Writes everything received so far; rejects with the first write error. */
  flush(): Promise<void>;
  /** Flushes and closes; idempotent (later calls return the same promise). */
  close(): Promise<void>;
  /**
   * The first write error, if any. Nothing is written after it, so the file stays a clean
   * prefix of the run (at most a torn last line, which `repairTornTail` mends on resume).
   */
  readonly failure: unknown;
}

/** Options of `openJournal`. */
export interface OpenJournalOptions {
  /** Default `JOURNAL_FLUSH_INTERVAL_MS`. */
  flushIntervalMs?: number;
  /** Told once, at the first write error (a full disk): the caller stops the run. */
  onFailure?: (error: unknown) => void;
  /**
   * A new run (its id was just made): the journal must not exist yet. Its folder is made with
   * one `mkdir`, the file is created exclusively (an existing journal is refused, never
   * appended to), and there is no torn tail or blob leftover to look for.
   */
  fresh?: boolean;
}

/**
 * Opens (or continues, for a resumed run) `RUN_DIR/journal.jsonl`. An incomplete last line
 * left by a crash is repaired first so new lines never follow a fragment.
 */
export async function openJournal(
  runDir: string,
  options: OpenJournalOptions = {},
): Promise<JournalWriter> {
  const fresh = options.fresh === true;
  const path = join(runDir, JOURNAL_FILE_NAME);
  const blobs = new BlobWriter(join(runDir, BLOBS_DIRECTORY_NAME));
  if (fresh) {
    await makeNewDirectory(runDir);
  } else {
    await makeDirectory(runDir);
    await repairTornTail(path);
    await blobs.removeLeftovers();
  }
  // 'ax': O_EXCL, so a new run never writes into another run's journal.
  const descriptor = openSync(path, fresh ? 'ax' : 'a');
  const pidPath = join(runDir, WRITER_PID_FILE_NAME);
  try {
    // Synchronous, as its removal: a few bytes cost less CPU than three thread-pool trips.
    writeFileSync(pidPath, `${process.pid}\n`);
  } catch (error) {
    closeSync(descriptor);
    throw error;
  }
  return new BatchedJournal(
    path,
    descriptor,
    blobs,
    pidPath,
    options.flushIntervalMs ?? JOURNAL_FLUSH_INTERVAL_MS,
    options.onFailure,
  );
}

function removePidFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Events after which nothing may wait in memory. */
export function flushesAtOnce(event: MissionEvent): boolean {
  switch (event.type) {
    case 'task.succeeded':
    case 'task.failed':
    case 'task.cancelled':
    case 'task.skipped':
    case 'run.finished':
      return true;
    case 'human.answered':
      // A person's answer is not asked for twice: resume finds it after any crash.
      return true;
    default:
      return event.type.startsWith('mission.');
  }
}

/**
 * One event as its journal line (with the newline). Money travels as decimal strings, so a
 * bigint here is an emitter's defect: JSON.stringify refuses it, and so do we, loudly.
 */
export function encodeEvent(event: MissionEvent): string {
  try {
    return `${eventJson(event)}\n`;
  } catch (error) {
    throw new JournalEncodingError(event.type, event.seq, { cause: error });
  }
}

/** An event's journal line (with the newline) and the blobs it references, by sha256. */
export interface JournalLine {
  line: string;
  blobs: ReadonlyMap<string, string>;
}

const NO_BLOBS: ReadonlyMap<string, string> = new Map();

/**
 * One event as its journal line: `encodeEvent`'s text, or, when the event holds long strings,
 * that text with them moved to blobs and listed under `$blobs`; sealed with its checksum
 * (line-checksum.ts).
 */
export function encodeJournalLine(event: MissionEvent): JournalLine {
  const text = encodeEvent(event);
  // No string of an event is longer than the event's JSON text.
  if (text.length < BLOB_MIN_CHARS) return { line: sealed(text.slice(0, -1)), blobs: NO_BLOBS };
  const extracted = extractBlobs(event);
  if (extracted.refs.length === 0) return { line: sealed(text.slice(0, -1)), blobs: NO_BLOBS };
  const framed = { ...(extracted.value as MissionEvent), [BLOBS_KEY]: extracted.refs };
  return { line: sealed(JSON.stringify(framed)), blobs: extracted.blobs };
}

function sealed(json: string): string {
  return `${withChecksum(json)}\n`;
}

class BatchedJournal implements JournalWriter {
  readonly subscriber: EventListener;
  failure: unknown = undefined;
  private batch: string[] = [];
  /** The batch's length in UTF-16 units. */
  private batchChars = 0;
  /** Blobs the batch's lines reference, written before the batch. */
  private batchBlobs = new Map<string, string>();
  private timer: NodeJS.Timeout | undefined;
  /**
   * Blobs being written, then the batch that references them: lines that arrive meanwhile
   * wait behind it (emit order) and are written when it ends.
   */
  private pending: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly descriptor: number,
    private readonly blobs: BlobWriter,
    private readonly pidPath: string,
    private readonly intervalMs: number,
    private readonly onFailure: ((error: unknown) => void) | undefined,
  ) {
    this.subscriber = Object.assign((event: MissionEvent) => this.receive(event), {
      ignoredTypes: UNJOURNALED_TYPES,
    });
  }

  async flush(): Promise<void> {
    this.writeNow();
    while (this.pending !== undefined) await this.pending;
    if (this.failure !== undefined) throw this.failure;
  }

  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private receive(event: MissionEvent): void {
    if (!isJournaled(event)) return;
    if (this.closing !== undefined) throw new JournalClosedError(this.path, event.type);
    const { line, blobs } = encodeJournalLine(event);
    for (const [sha256, text] of blobs) this.batchBlobs.set(sha256, text);
    this.batch.push(line);
    this.batchChars += line.length;
    if (flushesAtOnce(event) || this.batchChars >= JOURNAL_BATCH_CHARS) {
      this.writeNow();
    } else if (this.timer === undefined) {
      this.timer = setTimeout(() => this.writeNow(), this.intervalMs);
    }
  }

  /**
   * Writes the batch: at once when it references no blob and nothing is pending, else behind
   * its blobs. While blobs are written, new lines wait for them (never written out of order).
   */
  private writeNow(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.batch.length === 0 || this.pending !== undefined) return;
    const text = this.batch.join('');
    const blobs = this.batchBlobs;
    this.batch = [];
    this.batchChars = 0;
    if (blobs.size === 0) {
      this.append(text);
      return;
    }
    this.batchBlobs = new Map();
    this.pending = this.writeBlobs(blobs).then(() => {
      this.append(text);
      this.pending = undefined;
      // Lines that arrived while the blobs were written go now, behind this batch.
      this.writeNow();
    });
  }

  /** A line never reaches the disk before its blobs: a failed blob stops the journal. */
  private async writeBlobs(blobs: ReadonlyMap<string, string>): Promise<void> {
    if (this.failure !== undefined) return;
    try {
      for (const [sha256, blob] of blobs) await this.blobs.write(sha256, blob);
    } catch (error) {
      this.fail(error);
    }
  }

  private append(text: string): void {
    // After a failed write a later, smaller one might fit and leave a gap mid-file.
    if (this.failure !== undefined) return;
    try {
      // appendFileSync on a descriptor writes until every byte is out (or throws).
      appendFileSync(this.descriptor, text, 'utf8');
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown): void {
    this.failure = error;
    this.onFailure?.(error);
  }

  private async finish(): Promise<void> {
    try {
      await this.flush();
    } finally {
      closeSync(this.descriptor);
      removePidFile(this.pidPath);
    }
  }
}
