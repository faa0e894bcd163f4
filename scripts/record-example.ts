/**
 * Records the cassettes the examples ship (`examples/<name>/cassette.jsonl`) by running each
 * mission against the scripted model server with the `--record` wiring (see
 * record-cassette.ts). The cassettes therefore hold scripted turns, not real model output,
 * and their header says so. Name examples to record only those; no name records them all.
 *
 *   node_modules/.bin/tsx scripts/record-example.ts [hello] [research] [bookshop]
 */
import { bookshopExample } from './examples/bookshop.ts';
import { helloExample } from './examples/hello.ts';
import { researchExample } from './examples/research.ts';
import { recordExample, type ExampleScript } from './record-cassette.ts';

const EXAMPLES: ExampleScript[] = [helloExample, researchExample, bookshopExample];

const names = process.argv.slice(2);
const unknown = names.filter((name) => !EXAMPLES.some((example) => example.name === name));
if (unknown.length > 0) {
  throw new Error(
    `no scripted example ${unknown.join(', ')} (known: ${EXAMPLES.map((example) => example.name).join(', ')})`,
  );
}
for (const example of EXAMPLES) {
  if (names.length > 0 && !names.includes(example.name)) continue;
  process.stdout.write(`${await recordExample(example)}\n`);
}
