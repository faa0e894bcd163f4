import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkWithHcl2Json, parseSource } from '../../../src/config/syntax/index.ts';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'config-syntax');
/** The complete example of config.md, shared with the semantic tests. */
const SPEC_EXAMPLE = join(import.meta.dirname, '../../fixtures/config/spec-example');

const insertions = [
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '"',
  '=',
  ':',
  ',',
  '\n',
  ' ',
  '\t',
  '#',
  '/',
  '*',
  '$',
  '%',
  '<<EOT\n',
  '<<-EOT\n',
  'EOT',
  ' EOT\n',
  '<<',
  '\\',
  '\\n',
  '\\u00',
  '.',
  '-',
  '+',
  '?',
  'x',
  '1',
  '~',
  '!',
  '\r',
  '\r\n',
  '${',
  '%{',
  'for x in y : ',
  '...',
  'a.b',
  '[*]',
  '.0',
  '-5',
  '1e',
  '==',
  '&&',
  '""',
  '{}',
  'x = 1\n',
  'b {\n',
  'é',
  '🎉',
  '::',
];

/** A small deterministic generator (linear congruential), so failures reproduce. */
function generator(seed: number): (limit: number) => number {
  let state = seed;
  return (limit) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state % limit;
  };
}

function mutate(text: string, random: (limit: number) => number): string {
  let result = text;
  const edits = 1 + random(3);
  for (let edit = 0; edit < edits; edit++) {
    const position = random(result.length);
    result =
      random(2) === 0
        ? result.slice(0, position) + result.slice(position + 1 + random(3))
        : result.slice(0, position) +
          insertions[random(insertions.length)] +
          result.slice(position);
  }
  return result;
}

describe('agreement with hcl2json on mutated files', () => {
  it('never throws, and finds a syntax problem exactly when hcl2json does', async () => {
    const base =
      (await readFile(join(SPEC_EXAMPLE, 'main.hcl'), 'utf8')) +
      (await readFile(join(fixtures, 'literals', 'values.hcl'), 'utf8'));
    const random = generator(7);
    const disagreements: string[] = [];
    for (let round = 0; round < 500; round++) {
      const text = mutate(base, random);
      const ours = parseSource('f.hcl', text).diagnostics;
      const reference = await checkWithHcl2Json('f.hcl', text);
      // hcl2json accepts what sortie reports as unsupported, so only syntax errors compare.
      const oursSyntax = ours.filter(
        (d) => d.message.startsWith('syntax error') || d.message.startsWith('attribute'),
      );
      if (reference.ok && oursSyntax.length > 0)
        disagreements.push(`only sortie: ${oursSyntax[0]?.message}`);
      if (!reference.ok && ours.length === 0)
        disagreements.push(`only hcl2json: ${reference.diagnostics[0]?.message}`);
    }
    expect(disagreements).toEqual([]);
  });
});
