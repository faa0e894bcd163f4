/**
 * Writes cassettes: `openCassetteWriter` appends entries as a recorded run produces them (one
 * handle, writes in order); `writeCassette` writes a whole cassette at once. Every line is
 * redacted before it reaches the disk.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { makeDirectory } from '../../base/make-directory.ts';
import { redactDeep, type Redactor } from '../../base/redact.ts';
import { CassetteClosedError } from '../journal-errors.ts';
import {
  CASSETTE_VERSION,
  type Cassette,
  type CassetteEntry,
  type CassetteHeader,
} from './cassette-format.ts';

/** Appends entries to a cassette being recorded. */
export interface CassetteWriter {
  readonly path: string;
  /** Queues one entry (redacted); writes happen in call order. */
  append(entry: CassetteEntry): void;
  /** Waits for every queued write; rejects with the first write error. */
  flush(): Promise<void>;
  /** Flushes and closes; idempotent. */
  close(): Promise<void>;
}

/** Options of a new cassette. */
export interface CassetteWriterOptions {
  note: string;
  /** The run's redactor (API keys, secret variables, protected inputs). */
  redact: Redactor;
  /** Injectable for tests. */
  now?: () => Date;
  /** Told once, at the first write error (a full disk): the caller stops the run. */
  onFailure?: (error: unknown) => void;
}

/** Creates (or replaces) a cassette file and writes its header. */
export async function openCassetteWriter(
  path: string,
  options: CassetteWriterOptions,
): Promise<CassetteWriter> {
  await makeDirectory(dirname(path));
  const handle = await open(path, 'w');
  const header: CassetteHeader = {
    cassette: CASSETTE_VERSION,
    note: options.note,
    created: (options.now ?? (() => new Date()))().toISOString(),
  };
  const writer = new AppendingCassette(path, handle, options.redact, options.onFailure);
  writer.appendLine(header);
  return writer;
}

/** Writes a complete cassette (hand-written scripts, tests, conversions). */
export async function writeCassette(
  path: string,
  cassette: Cassette,
  redact: Redactor = (text) => text,
): Promise<void> {
  const writer = await openCassetteWriter(path, {
    note: cassette.header.note,
    redact,
    now: () => new Date(cassette.header.created),
  });
  for (const entry of cassette.entries) writer.append(entry);
  await writer.close();
}

/**
 * One redacted JSON line. Strings are redacted one by one (so the JSON stays valid), then the
 * text once more, which also catches a secret whose JSON escaping differs from its raw form.
 */
export function redactedLine(value: unknown, redact: Redactor): string {
  const text = JSON.stringify(redactDeep(value, redact));
  const again = redact(text);
  if (again !== text && isJson(again)) return `${again}\n`;
  return `${text}\n`;
}

class AppendingCassette implements CassetteWriter {
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = undefined;
  private closing: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly redact: Redactor,
    private readonly onFailure: ((error: unknown) => void) | undefined,
  ) {}

  append(entry: CassetteEntry): void {
    this.appendLine(entry);
  }

  appendLine(value: unknown): void {
    if (this.closing !== undefined) throw new CassetteClosedError(this.path);
    const line = redactedLine(value, this.redact);
    this.writing = this.writing.then(async () => {
      // Nothing after a failed write, so the cassette stays a clean prefix of the run.
      if (this.failure !== undefined) return;
      try {
        await this.handle.appendFile(line, 'utf8');
      } catch (error) {
        this.failure = error;
        this.onFailure?.(error);
      }
    });
  }

  async flush(): Promise<void> {
    await this.writing;
    if (this.failure !== undefined) throw this.failure;
  }

  close(): Promise<void> {
    this.closing ??= this.flush().finally(() => this.handle.close());
    return this.closing;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
