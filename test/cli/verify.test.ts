import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/program.ts';
import type { CliIo } from '../../src/cli/io.ts';

const ROOT = join(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');
const MAIN = join(ROOT, 'src/cli/main.ts');

/** Runs the real CLI in a child process with colour off. */
function sortie(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(TSX, [MAIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, OPENAI_API_KEY: '' },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI in-process, capturing its output. */
async function run(
  argv: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: (text) => void (out += text),
    stderr: (text) => void (err += text),
    env,
    stdoutIsTty: false,
    stderrIsTty: false,
  };
  const code = await runCli(argv, io);
  return { code, out, err };
}

describe('sortie verify (child process)', () => {
  it.each([
    [
      'hello',
      'ok: 1 mission, 1 task, 1 agent, 1 model used (models.openai.gpt_4o_mini), 1 eval, 0 warnings\n',
    ],
    [
      'research',
      'ok: 1 mission, 5 tasks, 2 agents, 3 models used (models.anthropic.claude_haiku_4_5, models.anthropic.claude_sonnet_4_6, models.openai.gpt_4_1_mini), 0 warnings\n',
    ],
    [
      'datasets',
      'ok: 1 mission, 2 tasks, 2 agents, 3 models used (models.openai.gpt_4_1_mini, models.openai.gpt_5_mini, models.openai.gpt_4_1), 0 warnings\n',
    ],
    [
      'bookshop',
      'ok: 1 mission, 1 task, 1 agent, 1 model used (models.openai.gpt_4o_mini), 0 warnings\n',
    ],
  ])('verifies examples/%s cleanly', (name, summary) => {
    const result = sortie('verify', `examples/${name}`);
    expect(result).toEqual({ status: 0, stdout: summary, stderr: '' });
  });

  it('prints each problem in the documented shape and exits 2 without a stack trace', () => {
    const result = sortie('verify', 'test/fixtures/config/broken');
    expect(result.status).toBe(2);
    expect(result.stdout).toBe(
      [
        'error: unknown task "gater" in depends_on (did you mean "gather"?)',
        '  --> research.hcl:17:19',
        '   |',
        '17 |     depends_on = [tasks.gater]',
        '   |                   ^^^^^^^^^^^',
        '   = in mission "research" › task "analyze"',
        '',
        'failed: 1 error, 0 warnings',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('');
  });

  it('rejects an unknown command with a suggestion and exit code 2', () => {
    const result = sortie('verfy');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      "error: unknown command 'verfy'\n(Did you mean verify?)\n(run sortie --help for usage)\n",
    );
    expect(result.stdout).toBe('');
  });
});

describe('sortie verify (in process)', () => {
  it('verifies the complete example of config.md', async () => {
    const result = await run(['verify', 'test/fixtures/config/spec-example']);
    expect(result).toEqual({
      code: 0,
      out: 'ok: 2 missions, 4 tasks, 2 agents, 3 models used (models.anthropic.claude_haiku_4_5, models.anthropic.claude_sonnet_4_6, models.local.qwen), 0 warnings\n',
      err: '',
    });
  });

  it('counts warnings and still exits 0 on a project written for the reference runtime', async () => {
    const result = await run(['verify', 'test/fixtures/config/squadron']);
    expect(result.code).toBe(0);
    expect(result.out.split('\n').at(-2)).toBe(
      'ok: 2 missions, 6 tasks, 2 agents, 2 models used (models.anthropic.claude_sonnet_4, models.openai.gpt_4o), 5 warnings',
    );
    expect(
      result.out.startsWith('warning: `role` is ignored by sortie\n --> agents.hcl:4:3\n'),
    ).toBe(true);
  });

  it('accepts constructs of the reference runtime with one warning each, at its position', async () => {
    const result = await run(['verify', 'test/fixtures/config/reference-compat'], {
      ANTHROPIC_API_KEY: 'sk-ant-test-0001',
    });
    expect(result.code).toBe(0);
    expect(result.err).toBe('');
    const warnings = result.out
      .split('\n')
      .flatMap((line, index, lines) =>
        line.startsWith('warning: ') ? [`${line.slice(9)} @ ${lines[index + 1]?.trim()}`] : [],
      );
    expect(warnings).toEqual([
      'vars.anthropic_api_key has no variable "anthropic_api_key" block: it is read like a secret variable @ --> main.hcl:3:14',
      'unknown attribute "goal" is ignored by sortie @ --> main.hcl:14:3',
      '`secret` blocks are ignored by sortie @ --> main.hcl:25:3',
      'vars.pager_token has no variable "pager_token" block: it is read like a secret variable @ --> main.hcl:32:17',
      'protected is ignored inside an object: only top-level mission inputs are protected @ --> main.hcl:48:51',
    ]);
    expect(result.out).toContain(
      '   = in mission "incident" › input "pager_token"\n   = hint: its value comes from --var pager_token=VALUE, SORTIE_VAR_pager_token or PAGER_TOKEN; declare it with variable "pager_token" { secret = true } to silence this warning\n',
    );
    expect(result.out.split('\n').at(-2)).toBe(
      'ok: 2 missions, 2 tasks, 1 agent, 1 model used (models.anthropic.claude_sonnet_4_6), 5 warnings',
    );
  });

  it('reports a missing project and a bad --var as usage errors', async () => {
    expect(await run(['verify', 'no/such/dir'])).toEqual({
      code: 2,
      out: '',
      err: 'error: no such file or directory: no/such/dir\n',
    });
    expect(await run(['verify', 'examples/hello', '--var', 'novalue'])).toEqual({
      code: 2,
      out: '',
      err: 'error: --var novalue: expected NAME=VALUE\nhint: for example --var region=eu-west-1\n',
    });
  });

  it('checks every file with hcl2json under --strict-hcl and prints the same verdict', async () => {
    const example = join(ROOT, 'examples/hello');
    const lenient = await run(['verify', example]);
    expect(await run(['verify', '--strict-hcl', example])).toEqual(lenient);
    expect(lenient.code).toBe(0);
  });

  it('suggests a close option name and exits 2', async () => {
    const result = await run(['verify', '--va', 'a=b']);
    expect(result.code).toBe(2);
    expect(result.err).toBe(
      "error: unknown option '--va'\n(Did you mean --var?)\n(run sortie --help for usage)\n",
    );
  });

  it('prints help and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    expect(result.out).toContain('verify [options] [DIR]');
  });

  it('colours diagnostics with FORCE_COLOR and not with NO_COLOR', async () => {
    const forced = await run(['verify', 'test/fixtures/config/broken'], { FORCE_COLOR: '1' });
    expect(forced.out.startsWith('\u001b[1m\u001b[31merror\u001b[0m: ')).toBe(true);
    const plain = await run(['verify', 'test/fixtures/config/broken'], {
      FORCE_COLOR: '1',
      NO_COLOR: '1',
    });
    expect(plain.out.startsWith('error: unknown task')).toBe(true);
  });
});
