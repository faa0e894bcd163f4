/**
 * Reads a run journal back: every journaled event in order (message.appended included), so
 * `show`, `replay` and `resume` work from the file alone. A torn last line (a crash while
 * writing, or a last line whose checksum fails) is ignored; damage anywhere else is a
 * `CorruptJournalError`. Strings the writer
 * moved to blobs come back from the `blobs/` folder beside the journal: each checked as its line
 * is read, its text read when first used (blob-resolve.ts).
 */
import { dirname, join } from 'node:path';
import { describeFileSystemError, isFileSystemError } from '../base/file-system-error.ts';
import { UsageError } from '../base/errors.ts';
import type { MissionEvent } from '../base/events.ts';
import { BLOBS_KEY } from './blob-references.ts';
import { attachBlobs, BlobReferenceError } from './blob-resolve.ts';
import { BlobReader } from './blob-store.ts';
import { CorruptJournalError, JournalNotFoundError } from './journal-errors.ts';
import { BadJsonLine, readJsonLines, type JsonLinesEnd } from './json-lines.ts';
import { BLOBS_DIRECTORY_NAME, isMissing } from './paths.ts';

/** A journal's content. */
export interface JournalContent {
  events: MissionEvent[];
  /** The last line was incomplete and was ignored. */
  torn: boolean;
  /** Non-fatal oddities, one sentence each (the torn line, seq going backwards). */
  problems: string[];
}

/** Reads a whole journal (streamed line by line). */
export async function readJournal(path: string): Promise<JournalContent> {
  const events: MissionEvent[] = [];
  const problems: string[] = [];
  const end: JsonLinesEnd = { torn: false, tornLine: null };
  let lastSeq = 0;
  for await (const { line, event } of journalEvents(path, end)) {
    if (event.seq <= lastSeq) {
      problems.push(`line ${line}: seq ${event.seq} does not follow seq ${lastSeq}`);
    }
    lastSeq = Math.max(lastSeq, event.seq);
    events.push(event);
  }
  if (end.torn) {
    problems.push(
      end.checksum === true
        ? `line ${end.tornLine}: the last line does not match its checksum (it changed after it was written); ignored`
        : `line ${end.tornLine}: incomplete last line (the run stopped while writing it); ignored`,
    );
  }
  return { events, torn: end.torn, problems };
}

/**
 * Streams a journal's events one at a time (for replaying big journals without holding them);
 * `end.torn` is set once the stream is exhausted.
 */
export async function* journalEvents(
  path: string,
  end: JsonLinesEnd = { torn: false, tornLine: null },
): AsyncGenerator<{ line: number; event: MissionEvent }> {
  const blobs = new BlobReader(join(dirname(path), BLOBS_DIRECTORY_NAME));
  try {
    for await (const { line, value } of readJsonLines(path, end)) {
      const problem = eventProblem(value);
      if (problem !== undefined) throw new CorruptJournalError(path, line, problem);
      const event = value as MissionEvent & { [BLOBS_KEY]?: unknown };
      const refs = event[BLOBS_KEY];
      if (refs !== undefined) {
        delete event[BLOBS_KEY];
        await attachLine(event, refs, blobs, path, line);
      }
      yield { line, event };
    }
  } catch (error) {
    if (error instanceof BadJsonLine) throw new CorruptJournalError(path, error.line, error.detail);
    if (isMissing(error)) throw new JournalNotFoundError(path);
    if (isFileSystemError(error)) throw new UsageError(describeFileSystemError(error, path));
    throw error;
  }
}

async function attachLine(
  event: MissionEvent,
  refs: unknown,
  blobs: BlobReader,
  path: string,
  line: number,
): Promise<void> {
  const corrupt = (error: BlobReferenceError): CorruptJournalError =>
    new CorruptJournalError(path, line, `a long string cannot be read back: ${error.message}`);
  try {
    await attachBlobs(event, refs, blobs, corrupt);
  } catch (error) {
    if (error instanceof BlobReferenceError) throw corrupt(error);
    throw error;
  }
}

// Only the envelope is checked: payloads are the runtime's own output, and a reader of an
// older journal should still show what it can.
function eventProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return 'not an event object';
  }
  const event = value as Record<string, unknown>;
  if (typeof event.type !== 'string') return 'event has no "type"';
  if (typeof event.seq !== 'number' || !Number.isInteger(event.seq)) return 'event has no "seq"';
  if (typeof event.time !== 'string') return 'event has no "time"';
  if (typeof event.actor !== 'string') return 'event has no "actor"';
  return undefined;
}
