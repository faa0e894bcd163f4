import { describe, expect, it } from 'vitest';
import type { MissionConfig } from '../../src/config/config-types.ts';
import { requestInputs } from '../../src/serve/request-inputs.ts';
import { decodeText, PRELUDE } from '../config/helpers.ts';

function mission(): MissionConfig {
  const { config, diagnostics } = decodeText(`${PRELUDE}
mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  inputs = {
    name  = string("Who", true)
    count = integer("How many", { default = 1 })
    ok    = bool("Fine?", { default = false })
    tags  = list(string, "Tags", { default = [] })
    doc   = file("A document")
  }
  task "t" {
    objective = "Do"
  }
}`);
  expect(diagnostics).toEqual([]);
  return config.missions.get('m')!;
}

describe('requestInputs', () => {
  it('converts strings as the CLI does, takes typed JSON as it is, and uploads files', async () => {
    const result = requestInputs(mission(), {
      name: 'Ada',
      count: '3',
      ok: true,
      tags: '["a","b"]',
      doc: { filename: 'doc.txt', content_base64: 'aGk=' },
    });
    expect(result).toEqual({
      ok: true,
      inputs: {
        name: 'Ada',
        count: 3,
        ok: true,
        tags: ['a', 'b'],
        doc: { base64: 'aGk=', filename: 'doc.txt' },
      },
    });
  });

  it('refuses a path as a file input, and a body that is not an object', async () => {
    const config = mission();
    expect(requestInputs(config, { name: 'Ada', doc: { path: '/etc/passwd' } })).toEqual({
      ok: false,
      problems: [
        {
          input: 'doc',
          message: 'a file input takes {"filename", "content_base64"} or "base64:DATA[#FILENAME]"',
        },
      ],
    });
    expect(requestInputs(config, ['Ada'])).toEqual({
      ok: false,
      problems: [{ input: '', message: 'the inputs must be a JSON object' }],
    });
  });

  it('names every bad input: a wrong type, a number that is not whole, an unknown name', async () => {
    expect(requestInputs(mission(), { name: 7, count: '2.5', cuont: 1 })).toEqual({
      ok: false,
      problems: [
        { input: 'count', message: 'expected a whole number' },
        { input: 'cuont', message: 'mission "m" has no input "cuont" (did you mean "count"?)' },
      ],
    });
    expect(requestInputs(mission(), { name: 7 })).toEqual({
      ok: false,
      problems: [{ input: 'name', message: 'must be string' }],
    });
  });
});
