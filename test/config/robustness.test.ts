import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText, diagnose, PRELUDE } from './helpers.ts';

const EXAMPLE = readFileSync(
  join(import.meta.dirname, '../fixtures/config/spec-example/main.hcl'),
  'utf8',
);

describe('bad input never crashes the decoder', () => {
  it('decodes every truncation and every one-line deletion of the complete example', () => {
    const lines = EXAMPLE.split('\n');
    let decoded = 0;
    for (let count = 0; count <= lines.length; count++) {
      expect(() =>
        decodeText(lines.slice(0, count).join('\n'), { loaded: { 'prompts/analyst.md': 'A' } }),
      ).not.toThrow();
      const without = [...lines.slice(0, count), ...lines.slice(count + 1)].join('\n');
      expect(() => decodeText(without, { loaded: { 'prompts/analyst.md': 'A' } })).not.toThrow();
      decoded += 2;
    }
    expect(decoded).toBe(2 * (lines.length + 1));
  });

  it('reports labels on blocks that take none', () => {
    expect(
      diagnose(
        `${PRELUDE}mission "m" {\n  commander "c" {\n    model = models.openai.gpt_4o\n  }\n  task "t" {\n    objective = "x"\n    output "o" {\n      field "a" {\n        type = "string"\n      }\n    }\n  }\n}\n`,
      ),
    ).toEqual([
      'error 15:13 `commander` block takes no label',
      'error 20:12 `output` block takes no label',
    ]);
  });
});
