/**
 * A streaming JSONL reader shared by journals and cassettes: reads the file in chunks (never
 * the whole file as one string), parses each line and tells a torn last line (a crash in the
 * middle of a write: no final newline and not valid JSON; or a last line whose checksum does
 * not match, see line-checksum.ts) from damage in the middle.
 */
import { createReadStream } from 'node:fs';
import { checkLine } from './line-checksum.ts';

/** One parsed line (1-based `line`). */
export interface JsonLine {
  line: number;
  value: unknown;
}

/** What the reader found at the end of the file. */
export interface JsonLinesEnd {
  /**
   * The last line was ignored: it had no newline and was not valid JSON, or its checksum did
   * not match (`checksum`).
   */
  torn: boolean;
  /** Its 1-based number when torn. */
  tornLine: number | null;
  /** Set when the torn line was whole but changed: its checksum did not match. */
  checksum?: boolean;
}

/** A line in the middle of the file that is not JSON. */
export class BadJsonLine extends Error {
  constructor(
    readonly line: number,
    readonly detail: string,
  ) {
    super(`line ${line}: ${detail}`);
  }
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;

/**
 * Yields every JSON line of a file; blank lines are skipped. Throws `BadJsonLine` for a bad
 * line that is followed by anything; reports a torn last line through `end` instead. A line
 * whose checksum does not match is torn when nothing follows it, else bad.
 */
export async function* readJsonLines(
  path: string,
  end: JsonLinesEnd = { torn: false, tornLine: null },
): AsyncGenerator<JsonLine> {
  let carry: Buffer = Buffer.alloc(0);
  let lineNumber = 0;
  /** A whole line whose checksum failed: torn if it is the last, else corruption. */
  let changed: BadJsonLine | undefined;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    const buffer = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    let start = 0;
    for (
      let index = buffer.indexOf(NEWLINE, start);
      index !== -1;
      index = buffer.indexOf(NEWLINE, start)
    ) {
      lineNumber += 1;
      const parsed = parseLine(buffer.subarray(start, index), lineNumber);
      start = index + 1;
      if (parsed === undefined) continue;
      if (changed !== undefined) throw changed;
      if (parsed instanceof ChangedLine) changed = parsed;
      else if (parsed instanceof BadJsonLine) throw parsed;
      else yield { line: lineNumber, value: parsed.value };
    }
    carry = buffer.subarray(start);
  }
  const last = carry.length === 0 ? undefined : parseLine(carry, lineNumber + 1);
  if (last !== undefined && changed !== undefined) throw changed;
  if (last === undefined || last instanceof BadJsonLine) {
    const torn = last ?? changed;
    if (torn === undefined) return;
    end.torn = true;
    end.tornLine = torn.line;
    if (torn instanceof ChangedLine) end.checksum = true;
    return;
  }
  yield { line: lineNumber + 1, value: last.value };
}

/** A whole line that changed after it was written (its checksum does not match). */
class ChangedLine extends BadJsonLine {}

function parseLine(bytes: Buffer, line: number): { value: unknown } | BadJsonLine | undefined {
  const trimmed = bytes.at(-1) === RETURN ? bytes.subarray(0, -1) : bytes;
  const checked = checkLine(trimmed);
  if (checked === 'mismatch')
    return new ChangedLine(line, 'its checksum does not match (a byte changed)');
  const text = checked === 'unchecked' ? trimmed.toString('utf8') : checked;
  if (text.trim() === '') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return new BadJsonLine(line, `not valid JSON (${(error as Error).message})`);
  }
}
