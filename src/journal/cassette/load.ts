/** Reads a cassette file, checking every line; bad files are usage errors (exit 2). */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CassetteIsFolderError,
  CassetteNotFoundError,
  CorruptCassetteError,
} from '../journal-errors.ts';
import { BadJsonLine, readJsonLines, type JsonLinesEnd } from '../json-lines.ts';
import { isMissing } from '../paths.ts';
import {
  entryProblem,
  headerProblem,
  type Cassette,
  type CassetteEntry,
  type CassetteHeader,
} from './cassette-format.ts';

/** A loaded cassette plus what the reader noticed. */
export interface LoadedCassette extends Cassette {
  /** The last line was incomplete (the recording stopped mid-write) and was ignored. */
  torn: boolean;
}

/** Loads and checks a cassette: header first, then entries with unique actor/turn pairs. */
export async function loadCassette(path: string): Promise<LoadedCassette> {
  const end: JsonLinesEnd = { torn: false, tornLine: null };
  let header: CassetteHeader | undefined;
  const entries: CassetteEntry[] = [];
  const seen = new Set<string>();
  try {
    for await (const { line, value } of readJsonLines(path, end)) {
      if (header === undefined) {
        const problem = headerProblem(value);
        if (problem !== undefined) throw new CorruptCassetteError(path, line, problem);
        header = value as CassetteHeader;
        continue;
      }
      const problem = entryProblem(value);
      if (problem !== undefined) throw new CorruptCassetteError(path, line, problem);
      const entry = value as CassetteEntry;
      const key = `${entry.actor}\u0000${entry.turn}`;
      if (seen.has(key)) {
        throw new CorruptCassetteError(
          path,
          line,
          `turn ${entry.turn} of actor ${entry.actor} appears twice`,
        );
      }
      seen.add(key);
      entries.push(entry);
    }
  } catch (error) {
    if (error instanceof BadJsonLine)
      throw new CorruptCassetteError(path, error.line, error.detail);
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') {
      throw new CassetteIsFolderError(path, await cassettesIn(path));
    }
    if (isMissing(error)) throw new CassetteNotFoundError(path);
    throw error;
  }
  if (header === undefined)
    throw new CorruptCassetteError(path, 1, 'the file is empty (no cassette header)');
  return { header, entries, torn: end.torn };
}

/** The `*.jsonl` files of a folder (a cassette's usual name), sorted, as paths under it. */
async function cassettesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .map((entry) => join(folder, entry.name))
    .sort();
}
