/**
 * Long differential runs of sortie's HCL parser against hcl2json (the grammar of record), for
 * what the test suite's sample cannot afford: every `.hcl` file under the given folders,
 * mutated ROUNDS times each. Prints the counts and every disagreement (as JSON lines).
 * Run: `node_modules/.bin/tsx scripts/fuzz-hcl.ts ROUNDS SEED FOLDER...`, e.g.
 * `tsx scripts/fuzz-hcl.ts 40 1 examples test/fixtures /work/corpus`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { disagreement, generator, mutate } from '../test/config/syntax/hcl-mutations.ts';

const [roundsArgument = '40', seedArgument = '1', ...folders] = process.argv.slice(2);
const rounds = Number(roundsArgument);
const random = generator(Number(seedArgument));

const files = folders.flatMap((folder) =>
  readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.hcl'))
    .sort()
    .map((path) => join(folder, path)),
);
let texts = 0;
let found = 0;
for (const file of files) {
  const base = readFileSync(file, 'utf8');
  const candidates = [base, ...Array.from({ length: rounds }, () => mutate(base, random))];
  for (const text of candidates) {
    texts++;
    const problem = await disagreement(text);
    if (problem === undefined) continue;
    found++;
    console.log(JSON.stringify({ file, problem, text }));
  }
}
console.log(JSON.stringify({ files: files.length, texts, disagreements: found }));
