import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/io.ts';
import { runCli } from '../../src/cli/program.ts';
import { analyzeEvals } from '../../src/eval/definition/load-evals.ts';
import { loadProject } from '../../src/config/load-project.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const HELLO = join(import.meta.dirname, '../../examples/hello/main.hcl');

/** A copy of examples/hello with `.evals/greet.hcl` holding `text`. */
function projectWithEval(text: string): string {
  const root = temporaryDirectorySync('eval-verify');
  cpSync(HELLO, join(root, 'main.hcl'));
  mkdirSync(join(root, '.evals'));
  writeFileSync(join(root, '.evals', 'greet.hcl'), text);
  return root;
}

async function verify(root: string): Promise<{ code: number; out: string }> {
  let out = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (out += text),
    env: {},
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  const code = await runCli(['verify', root], io);
  return { code, out };
}

const VALID = `eval "greetings" {
  mission     = "hello"
  repeat      = 3
  concurrency = 2
  pass_rate   = 0.5

  case "ada" {
    inputs = { name = "Ada" }
    expect "summary" { contains = "Ada" }
  }
  case "grace" {
    inputs    = { name = "Grace" }
    pass_rate = 1
  }

  variant "mini" {}
  variant "formal" {
    commander_model = models.openai.gpt_4o
    agent_models    = { greeter = models.openai.gpt_4o }
    objectives      = { greet = "Write a formal greeting for \${inputs.name}" }
    personalities   = { greeter = "You are formal." }
  }

  expect "succeeded" {}
  expect "max" {
    cost            = 0.05
    commander_turns = 8
  }
  expect "tools" {
    agent = "greeter"
    calls = ["a", { tool = "b", arguments = { x = 1 } }]
  }
}
`;

describe('eval definitions in .evals/', () => {
  it('decodes cases, variants and expectations against the mission', async () => {
    const root = projectWithEval(VALID);
    const analysis = await analyzeEvals(await loadProject(root, { env: {} }));
    expect(analysis.diagnostics).toEqual([]);
    const [definition] = analysis.evals;
    expect(definition?.cases.map((item) => [item.name, item.inputs, item.passRate])).toEqual([
      ['ada', { name: 'Ada' }, 0.5],
      ['grace', { name: 'Grace' }, 1],
    ]);
    expect(definition?.variants.map((variant) => variant.name)).toEqual(['mini', 'formal']);
    expect(definition?.variants[1]?.commanderModel).toEqual({ config: 'openai', key: 'gpt_4o' });
    expect(definition?.expectations.map((item) => item.label)).toEqual([
      'succeeded',
      'max cost 0.05',
      'max commander_turns 8',
      'tools greeter: a → b{"x":1}',
    ]);
    expect(definition?.cases[0]?.expectations.map((item) => item.label)).toEqual([
      'summary greet contains "Ada"',
    ]);
  });

  it('is checked by sortie verify, which counts the evals', async () => {
    const { code, out } = await verify(projectWithEval(VALID));
    expect({ code, out }).toEqual({
      code: 0,
      out: 'ok: 1 mission, 1 task, 1 agent, 1 model used (models.openai.gpt_4o_mini), 1 eval, 0 warnings\n',
    });
  });

  it('reports unknown tasks, inputs, models and expectations at file:line:col (exit 2)', async () => {
    const root = projectWithEval(`eval "bad" {
  mission = "hello"
  case "ada" {
    inputs = { nam = "Ada" }
  }
  variant "x" {
    commander_model = models.openai.gpt_4oo
  }
  expect "outptu" {}
  expect "output" {
    task     = "gret"
    contains = "x"
  }
}
`);
    const { code, out } = await verify(root);
    expect(code).toBe(2);
    const lines = out
      .split('\n')
      .filter((line) => line.startsWith('error') || line.includes('-->'));
    expect(lines).toEqual([
      'error: mission "hello" has no input "nam" (did you mean "name"?)',
      ' --> .evals/greet.hcl:4:16',
      'error: unknown model "gpt_4oo" in model block "openai" (did you mean "gpt_4o"?)',
      ' --> .evals/greet.hcl:7:23',
      'error: unknown expectation "outptu" (did you mean "output"?)',
      ' --> .evals/greet.hcl:9:10',
      'error: mission "hello" has no task "gret" (did you mean "greet"?)',
      '  --> .evals/greet.hcl:11:16',
    ]);
    expect(out.endsWith('failed: 4 errors, 0 warnings\n')).toBe(true);
  });
});
