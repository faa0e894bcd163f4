import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors.ts';
import { parseInputFlags } from '../../src/cli/input-flags.ts';
import { decodeText, PRELUDE } from '../config/helpers.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const { config, diagnostics } = decodeText(`${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  inputs = {
    topic  = string("The topic", true)
    depth  = integer("How deep", { default = 2 })
    ratio  = number("Ratio")
    strict = bool("Be strict")
    tags   = list(string, "Tags")
    quote  = object({ amount = number("Amount", true) }, "A quote")
    extra  = any
    brief  = file("The brief")
  }
  task "t" {
    objective = "x"
  }
}
`);
const inputs = config.missions.get('m')?.inputs;

function problem(flags: string[], cwd?: string): string {
  try {
    parseInputFlags(flags, inputs, 'm', cwd);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
  }
  return 'no error';
}

describe('parseInputFlags', () => {
  it('starts from a project without problems', () => {
    expect(diagnostics).toEqual([]);
  });

  it('converts values by type and applies defaults', () => {
    const cwd = temporaryDirectorySync('inputs');
    writeFileSync(join(cwd, 'brief.md'), '# Brief');
    expect(
      parseInputFlags(
        [
          'topic=rain',
          'ratio=0.5',
          'strict=yes',
          'tags=["a","b"]',
          'quote={"amount":3}',
          'extra=[1]',
          'brief=@brief.md',
        ],
        inputs,
        'm',
        cwd,
      ),
    ).toEqual({
      topic: 'rain',
      depth: 2,
      ratio: 0.5,
      strict: true,
      tags: ['a', 'b'],
      quote: { amount: 3 },
      extra: [1],
      brief: { path: join(cwd, 'brief.md') },
    });
    expect(
      parseInputFlags(
        ['topic=x', 'brief=base64:SGk=', 'extra=plain text', 'strict=0'],
        inputs,
        'm',
      ),
    ).toMatchObject({
      brief: { base64: 'SGk=', filename: 'brief' },
      extra: 'plain text',
      strict: false,
    });
  });

  it('names a missing required input with its description', () => {
    expect(problem([])).toBe(
      'missing required input "topic" (The topic): give it with --input topic=VALUE',
    );
  });

  it('collects every conversion problem into one usage error', () => {
    expect(
      problem([
        'topc=x',
        'depth=1.5',
        'ratio=abc',
        'strict=maybe',
        'tags=[oops',
        'brief=@nope.pdf',
        'plain',
      ]),
    ).toBe(
      [
        'invalid inputs for mission "m":',
        '  --input topc: mission "m" has no input "topc" (did you mean "topic"?)',
        '  --input depth=1.5: expected a whole number',
        '  --input ratio=abc: expected a number',
        '  --input strict=maybe: expected true/false, 1/0 or yes/no',
        '  --input tags=[oops: expected JSON (a list like ["a","b"])',
        '  --input brief=@nope.pdf: file not found: nope.pdf',
        '  --input plain: expected NAME=VALUE',
        '  missing required input "topic" (The topic): give it with --input topic=VALUE',
      ].join('\n'),
    );
  });

  it('validates converted values against the schema', () => {
    expect(problem(['topic=x', 'quote={"amount":"three"}'])).toBe(
      'input /quote/amount: must be number',
    );
  });
});

describe('parseInputFlags file inputs', () => {
  it('names a base64 upload after #FILENAME, else after the input', () => {
    expect(parseInputFlags(['topic=x', 'brief=base64:SGk=#notes.md'], inputs, 'm').brief).toEqual({
      base64: 'SGk=',
      filename: 'notes.md',
    });
    expect(parseInputFlags(['topic=x', 'brief=base64:SGk='], inputs, 'm').brief).toEqual({
      base64: 'SGk=',
      filename: 'brief',
    });
  });

  it('rejects a #FILENAME with a slash, and a directory given as @PATH', () => {
    expect(problem(['topic=x', 'brief=base64:SGk=#../x'])).toBe(
      '--input brief=base64:SGk=#../x: the name after # must be a plain file name (no slashes)',
    );
    const cwd = temporaryDirectorySync('inputs');
    expect(problem(['topic=x', 'brief=@.'], cwd)).toBe('--input brief=@.: not a file: .');
  });
});

describe('parseInputFlags for a resumed run (partial)', () => {
  it('converts only the given flags: nothing required, no defaults', () => {
    expect(parseInputFlags(['ratio=0.5'], inputs, 'm', undefined, { partial: true })).toEqual({
      ratio: 0.5,
    });
  });

  it('still reports a flag it cannot convert or an unknown name', () => {
    expect(() =>
      parseInputFlags(['ratio=half', 'topik=x'], inputs, 'm', undefined, { partial: true }),
    ).toThrow(
      'invalid inputs for mission "m":\n  --input ratio=half: expected a number\n  --input topik: mission "m" has no input "topik" (did you mean "topic"?)',
    );
  });
});
