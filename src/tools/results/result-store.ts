import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirectory } from '../../base/make-directory.ts';

/** The shape of a stored result, decided by parsing its text. */
export type StoredResultType = 'array' | 'object' | 'text';

/** A stored large result, parsed once and kept for the result tools. */
export interface StoredResult {
  id: string;
  type: StoredResultType;
  /** The result text exactly as the tool produced it. */
  text: string;
  /** Parsed JSON for arrays and objects; the text itself for text results. */
  value: unknown;
  /** UTF-8 size of `text`. */
  totalBytes: number;
}

const FILE_PATTERN = /^result_(\d+)\.json$/;
/** Parsed results kept in memory; older ones are read back from disk when asked for. */
const CACHE_SIZE = 16;

/**
 * Large tool results of one run, stored as `results/result_N.json` in the run directory
 * (ids `result_1`, `result_2`, … per run). JSON results are written as they came; text
 * results as a JSON string, so every file is valid JSON and its type survives a restart.
 * Reopening a directory continues the numbering after the highest id found.
 */
export class ResultStore {
  private nextNumber: number;
  private readonly cache = new Map<string, StoredResult>();

  private constructor(
    private readonly directory: string,
    highest: number,
  ) {
    this.nextNumber = highest + 1;
  }

  /** The folder, made by the first `save` (most runs store no large result). */
  private made: Promise<void> | undefined;

  /** The store of a run that has no file yet (a new run's first mission): nothing to read. */
  static empty(directory: string): ResultStore {
    return new ResultStore(directory, 0);
  }

  /** Opens the results folder of a run; the folder is created when the first result is saved. */
  static async open(directory: string): Promise<ResultStore> {
    let names: string[];
    try {
      names = await readdir(directory);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      names = [];
    }
    let highest = 0;
    for (const name of names) {
      const match = FILE_PATTERN.exec(name);
      if (match !== null) highest = Math.max(highest, Number(match[1]));
    }
    return new ResultStore(directory, highest);
  }

  /** Stores a result's text and returns it with its new id. */
  async save(text: string): Promise<StoredResult> {
    // The id is taken before the write so concurrent agents never share a number.
    const id = `result_${this.nextNumber++}`;
    const result = describeResult(id, text);
    const fileText = result.type === 'text' ? JSON.stringify(text) : text;
    this.made ??= makeDirectory(this.directory).catch((error: unknown) => {
      this.made = undefined; // tried again by the next save
      throw error;
    });
    await this.made;
    await writeFile(join(this.directory, `${id}.json`), fileText, 'utf8');
    this.remember(result);
    return result;
  }

  /** The stored result with this id, or undefined when there is none. */
  async get(id: string): Promise<StoredResult | undefined> {
    const cached = this.cache.get(id);
    if (cached !== undefined) {
      this.remember(cached);
      return cached;
    }
    if (!/^result_\d+$/.test(id)) return undefined;
    let fileText: string;
    try {
      fileText = await readFile(join(this.directory, `${id}.json`), 'utf8');
    } catch {
      return undefined;
    }
    const parsed = parseJson(fileText);
    const text = typeof parsed === 'string' ? parsed : fileText;
    const result = describeResult(id, text);
    this.remember(result);
    return result;
  }

  /** Keeps a result as the most recently used, dropping the least recently used beyond the cap. */
  private remember(result: StoredResult): void {
    this.cache.delete(result.id);
    this.cache.set(result.id, result);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
  }
}

/** Classifies a result's text: a JSON array, a JSON object, or text (anything else). */
export function describeResult(id: string, text: string): StoredResult {
  const value = parseJson(text);
  const totalBytes = Buffer.byteLength(text, 'utf8');
  if (Array.isArray(value)) return { id, type: 'array', text, value, totalBytes };
  if (typeof value === 'object' && value !== null) {
    return { id, type: 'object', text, value, totalBytes };
  }
  return { id, type: 'text', text, value: text, totalBytes };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
