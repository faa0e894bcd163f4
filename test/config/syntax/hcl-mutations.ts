/**
 * Deterministic random edits of HCL text, and the comparison of sortie's parser with hcl2json
 * on one text: shared by hcl2json-differential.test.ts and scripts/fuzz-hcl.ts (long ad-hoc
 * runs over a whole corpus).
 */
import { checkWithHcl2Json, parseSource } from '../../../src/config/syntax/index.ts';

/** Text inserted at random places: HCL's punctuation, keywords, escapes and odd characters. */
const INSERTIONS = [
  ...['{', '}', '[', ']', '(', ')', '"', '=', ':', ',', '\n', ' ', '\t', '#', '/', '*', '$'],
  ...['%', '<<EOT\n', '<<-EOT\n', 'EOT', ' EOT\n', '<<', '\\', '\\n', '\\u00', '.', '-', '+'],
  ...['?', 'x', '1', '~', '!', '\r', '\r\n', '${', '%{', 'for x in y : ', '...', 'a.b', '[*]'],
  ...['.0', '-5', '1e', '==', '&&', '""', '{}', 'x = 1\n', 'b {\n', 'é', '🎉', '::', "'", ';'],
  ...['\\U', '%%{', '$${', '0x1', '1.', '.5', '1e+', 'null', '"${"', '}"', '//', '/*', '*/'],
  ...['\f', '\v', '\u0000', '\u00a0', '\u2028', '\ufeff', '\u200b', '%{ if x }', '%{ endif }'],
  ...['~}', '${~', 'a[0]', 'f(', 'f()', '"\n"', '\\"', '=>', 'a "b"', '{ x = 1 }', '[1,]', '`'],
];

/**
 * mulberry32, a small seeded generator, so that a failure reproduces from its seed. The
 * linear congruential one used before multiplied past 2^53 in floating point, so its low bits
 * were constant and `state % 54` drew only every other insertion.
 */
export function generator(seed: number): (limit: number) => number {
  let state = seed >>> 0;
  return (limit) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return Math.floor((((mixed ^ (mixed >>> 14)) >>> 0) / 0x100000000) * limit);
  };
}

/** One to three edits: delete 1–3 characters, insert a piece of syntax, or move a line. */
export function mutate(text: string, random: (limit: number) => number): string {
  let result = text;
  const edits = 1 + random(3);
  for (let edit = 0; edit < edits; edit++) {
    const kind = random(6);
    if (kind === 5) {
      result = moveLine(result, random);
      continue;
    }
    const position = random(result.length);
    result =
      kind < 2
        ? result.slice(0, position) + result.slice(position + 1 + random(3))
        : result.slice(0, position) +
          INSERTIONS[random(INSERTIONS.length)] +
          result.slice(position);
  }
  return result;
}

/** Copies a line to another place, or swaps two lines. */
function moveLine(text: string, random: (limit: number) => number): string {
  const lines = text.split('\n');
  const from = random(lines.length);
  const to = random(lines.length);
  const line = lines[from] ?? '';
  if (random(2) === 0) lines.splice(to, 0, line);
  else [lines[from], lines[to]] = [lines[to] ?? '', line];
  return lines.join('\n');
}

/**
 * How the two parsers disagree on a text, or undefined when they agree: a file only
 * hcl2json rejects would pass `sortie verify` unchecked (sortie runs hcl2json only on files
 * its own parser has a problem with); one only sortie rejects for its syntax is refused
 * though valid. sortie's unsupported expressions are valid HCL, so they count as accepted.
 */
export async function disagreement(text: string): Promise<string | undefined> {
  const ours = parseSource('f.hcl', text).diagnostics;
  const reference = await checkWithHcl2Json('f.hcl', text);
  const oursSyntax = ours.filter(
    (diagnostic) =>
      diagnostic.message.startsWith('syntax error') || diagnostic.message.startsWith('attribute'),
  );
  if (reference.ok && oursSyntax.length > 0) return `only sortie: ${oursSyntax[0]?.message}`;
  if (!reference.ok && ours.length === 0)
    return `only hcl2json: ${reference.diagnostics[0]?.message}`;
  return undefined;
}
