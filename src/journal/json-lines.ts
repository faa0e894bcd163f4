/**
 * A streaming JSONL reader shared by journals and cassettes: reads the file in chunks (never
 * the whole file as one string), parses each line and tells a torn last line (a crash in the
 * middle of a write: no final newline and not valid JSON) from damage in the middle.
 */
import { createReadStream } from 'node:fs';

/** One parsed line (1-based `line`). */
export interface JsonLine {
  line: number;
  value: unknown;
}

/** What the reader found at the end of the file. */
export interface JsonLinesEnd {
  /** The last line had no newline and was not valid JSON: it was ignored. */
  torn: boolean;
  /** Its 1-based number when torn. */
  tornLine: number | null;
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

/**
 * Yields every JSON line of a file; blank lines are skipped. Throws `BadJsonLine` for a bad
 * line that is followed by anything; reports a torn last line through `end` instead.
 */
export async function* readJsonLines(
  path: string,
  end: JsonLinesEnd = { torn: false, tornLine: null },
): AsyncGenerator<JsonLine> {
  let carry: Buffer = Buffer.alloc(0);
  let lineNumber = 0;
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
      if (parsed instanceof BadJsonLine) throw parsed;
      yield { line: lineNumber, value: parsed.value };
    }
    carry = buffer.subarray(start);
  }
  if (carry.length === 0) return;
  lineNumber += 1;
  const parsed = parseLine(carry, lineNumber);
  if (parsed === undefined) return;
  if (parsed instanceof BadJsonLine) {
    end.torn = true;
    end.tornLine = lineNumber;
    return;
  }
  yield { line: lineNumber, value: parsed.value };
}

function parseLine(bytes: Buffer, line: number): { value: unknown } | BadJsonLine | undefined {
  const text = bytes.toString('utf8').replace(/\r$/, '');
  if (text.trim() === '') return undefined;
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return new BadJsonLine(line, `not valid JSON (${(error as Error).message})`);
  }
}
