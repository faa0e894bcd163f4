/**
 * The `continue it with: sortie resume …` line: the flags a run needs to go on the same way,
 * quoted for a shell, with secret variables and protected inputs named but never printed.
 */
import { describe, expect, it } from 'vitest';
import { resumeLine, shellWord } from '../../src/cli/resume-line.ts';
import type { RunFlags } from '../../src/cli/run.ts';
import { decodeText, PRELUDE } from '../config/helpers.ts';

const PROJECT = `${PRELUDE}
variable "region" {
  default = "eu"
}

mission "m" {
  commander {
    model = models.openai.gpt_4o
  }
  agents = [agents.writer]
  inputs = {
    topic    = string("Topic", true)
    token    = string("Token", { protected = true })
    contract = file("Contract")
  }
  task "t" {
    objective = "Write about \${inputs.topic}"
  }
}
`;

function lineFor(flags: Partial<RunFlags>, cwd = '/work') {
  const { config } = decodeText(PROJECT);
  const mission = config.missions.get('m');
  if (mission === undefined) throw new Error('the test project has no mission m');
  return resumeLine({
    runId: '20260101-000000-abcd',
    root: '/work/my project',
    cwd,
    flags: { chain: true, ...flags },
    config,
    mission,
  });
}

describe('resumeLine', () => {
  it('repeats the model source, state directory, variables, file inputs and run options', () => {
    expect(
      lineFor({
        stateDir: "/tmp/it's here",
        replayModel: 'cassette.jsonl',
        replayLenient: true,
        var: ['region=us east'],
        input: ['topic=bees', 'contract=@docs/a b.pdf'],
        keepGoing: true,
        chain: false,
        queue: 'redis://127.0.0.1:6379/0',
        human: false,
        humanTimeout: '30',
        quiet: true,
        record: 'cassette-2.jsonl',
        break: ['model'],
      }),
    ).toEqual({
      command:
        "sortie resume 20260101-000000-abcd 'my project' --state-dir '/tmp/it'\\''s here' --replay-model cassette.jsonl --replay-lenient --var 'region=us east' --input 'contract=@docs/a b.pdf' --keep-going --no-chain --queue redis://127.0.0.1:6379/0 --no-human --human-timeout 30 --quiet",
    });
  });

  it('names secret variables, protected inputs and a queue password instead of printing them', () => {
    expect(
      lineFor(
        {
          mockModel: 'mock.yaml',
          var: ['openai_api_key=sk-live-123', 'undeclared=x', 'region=eu'],
          input: ['token=tok-456', 'contract=@c.pdf'],
          queue: 'redis://:hunter2@127.0.0.1:6379/0',
        },
        '/elsewhere',
      ),
    ).toEqual({
      command:
        "sortie resume 20260101-000000-abcd '/work/my project' --mock-model mock.yaml --var region=eu --input contract=@c.pdf",
      withheld:
        '  adding what is not printed here: --var openai_api_key=… --var undeclared=… --input token=… --queue URL',
    });
  });

  it('quotes only the words a shell would change', () => {
    expect(['a-b_c/d.e:f=g@h,i+j%k', 'a b', '$HOME', "it's", ''].map(shellWord)).toEqual([
      'a-b_c/d.e:f=g@h,i+j%k',
      "'a b'",
      "'$HOME'",
      "'it'\\''s'",
      "''",
    ]);
  });
});
