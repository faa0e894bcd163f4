import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { disagreement, generator, mutate } from './hcl-mutations.ts';

const ROOT = join(import.meta.dirname, '../../..');
const SYNTAX_FIXTURES = join(ROOT, 'test/fixtures/config-syntax');

function hclFiles(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.hcl'))
    .sort()
    .map((path) => join(folder, path));
}

/**
 * The bases: the complete example of config.md, every literal and expression form sortie
 * knows, every example project, and configurations written for the reference runtime.
 */
const BASES = [
  join(ROOT, 'test/fixtures/config/spec-example/main.hcl'),
  ...hclFiles(join(SYNTAX_FIXTURES, 'literals')),
  ...hclFiles(join(SYNTAX_FIXTURES, 'expressions')),
  ...hclFiles(join(ROOT, 'examples')),
  ...hclFiles(join(SYNTAX_FIXTURES, 'corpus')),
].map((path) => [relative(ROOT, path), readFileSync(path, 'utf8')] as const);

/** hcl2json's time grows with the text: about 12 KB of mutated text per base (long runs: scripts/fuzz-hcl.ts). */
const TEXT_PER_BASE = 12_000;

describe('agreement with hcl2json on every fixture and example, and on mutations of them', () => {
  it.each(BASES)(
    '%s: sortie finds a syntax problem exactly when hcl2json does',
    async (path, base) => {
      const random = generator(path.length * 7919 + base.length);
      const rounds = Math.max(8, Math.ceil(TEXT_PER_BASE / base.length));
      const disagreements: string[] = [];
      const original = await disagreement(base);
      if (original !== undefined) disagreements.push(`as written: ${original}`);
      for (let round = 0; round < rounds; round++) {
        const text = mutate(base, random);
        const found = await disagreement(text);
        if (found !== undefined) disagreements.push(`${found}\n${JSON.stringify(text)}`);
      }
      expect(disagreements).toEqual([]);
    },
  );
});
