/**
 * Every source file has a name of its own, so a name in a stack trace, a search or a review
 * points at one file. The exceptions are the files every folder of a kind has by design: an
 * `index.ts` per folder, and the same few files in each wire protocol's folder of models/.
 */
import { readdirSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

/** A wire protocol's folder repeats the names of its siblings (client.ts, errors.ts, ...). */
function isProtocolFile(path: string): boolean {
  return /^models\/[^/]+\/[^/]+\.ts$/.test(path) && !path.startsWith('models/testing/');
}

describe('source file names', () => {
  it('are unique outside index.ts and the wire protocol folders', () => {
    const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => relative(SRC, join(SRC, path)))
      .filter((path) => basename(path) !== 'index.ts' && !isProtocolFile(path));
    const byName = new Map<string, string[]>();
    for (const path of files)
      byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
    const shared = [...byName.values()].filter((paths) => paths.length > 1);
    expect(shared).toEqual([]);
  });
});
