/**
 * Command-line conventions through the real CLI: `--version`, options before or after the
 * arguments, undeclared `--var` names, repeated `--input` names, and a local model server
 * that is not running.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sortieSync as sortie } from './cli-child.ts';
import { closedPort } from '../fixtures/closed-port.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const HELLO = 'examples/hello';
const CASSETTE = 'examples/hello/cassette.jsonl';
const temporary = temporaryDirectorySync('cli-input');

// Sequential: each child is awaited synchronously, so concurrency would only stack timeouts.
describe('sortie command-line input (child process)', () => {
  it('prints the version of package.json with --version and -V', () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      expect(sortie([flag])).toEqual({ status: 0, stdout: `${version}\n`, stderr: '' });
    }
  });

  it.each([
    [
      'verify',
      ['verify', '--var', 'openai_api_key=sk-x', HELLO],
      'ok: 1 mission, 1 task, 1 agent, 1 model used (models.openai.gpt_4o_mini), 1 eval, 0 warnings\n',
    ],
    [
      'run',
      [
        'run',
        '--replay-model',
        CASSETTE,
        '--quiet',
        '--input',
        'name=world',
        '--state-dir',
        join(temporary, 'order'),
        HELLO,
        'hello',
      ],
      'tasks:\n  greet  succeeded',
    ],
  ])('takes options before the arguments (%s)', (_command, args, start) => {
    const result = sortie(args);
    expect({ ...result, stdout: result.stdout.slice(0, start.length) }).toEqual({
      status: 0,
      stdout: start,
      stderr: '',
    });
  });

  it('refuses an undeclared --var with a suggestion and the declared names', () => {
    expect(sortie(['verify', HELLO, '--var', 'openai_api_kye=sk-x'])).toEqual({
      status: 2,
      stdout: '',
      stderr:
        'error: --var openai_api_kye: the project declares no variable "openai_api_kye" (did you mean "openai_api_key"?)\n' +
        "hint: the project's variables: openai_api_key\n",
    });
  });

  it('lists every undeclared --var of a run before it starts', () => {
    const result = sortie([
      'run',
      HELLO,
      '--replay-model',
      CASSETTE,
      '--var',
      'openai_api_kye=sk-x',
      '--var',
      'region=eu',
      '--state-dir',
      join(temporary, 'undeclared'),
    ]);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: [
        'error: unknown variables:',
        '  --var openai_api_kye: the project declares no variable "openai_api_kye" (did you mean "openai_api_key"?)',
        '  --var region: the project declares no variable "region"',
        "hint: the project's variables: openai_api_key",
        '',
      ].join('\n'),
    });
  });

  it('refuses an --input name given twice', () => {
    const result = sortie([
      'run',
      HELLO,
      '--replay-model',
      CASSETTE,
      '--input',
      'name=Ada',
      '--input',
      'name=Grace',
      '--state-dir',
      join(temporary, 'twice'),
    ]);
    expect(result).toEqual({
      status: 2,
      stdout: '',
      stderr: 'error: --input name: given more than once; give each input once\n',
    });
  });

  it('reports a local model server that is not running at once, with its URL and a hint', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
    const project = join(temporary, 'dead-server');
    writeProject(project, baseUrl);
    const result = sortie(['run', project, '--state-dir', join(project, 'state')]);
    expect(result.status).toBe(1);
    // No retry lines: a refused local connection is not retried for half a minute.
    expect(result.stdout.split('\n').filter((line) => line.includes('retry'))).toEqual([]);
    expect(result.stdout.split('\n').slice(-5)).toEqual([
      'tasks:',
      `  greet  failed  nothing answers at ${baseUrl} (connection refused)`,
      '      hint: start the model server (Ollama: `ollama serve`) or correct base_url of model "local"',
      'costs: no model requests',
      '',
    ]);
    // A run that did not succeed ends by saying how to continue it.
    const [runId = ''] = readdirSync(join(project, 'state', 'runs'));
    expect(result.stderr).toBe(
      `run ${runId} failed · $0.0000 · journal ${join(project, 'state', 'runs', runId, 'journal.jsonl')}\n` +
        `continue it with: sortie resume ${runId} ${project} --state-dir ${join(project, 'state')}\n`,
    );
  });
});

function writeProject(directory: string, baseUrl: string): void {
  const hcl = `model "local" {
  provider = "ollama"
  base_url = "${baseUrl}"
  aliases  = { llama = "llama3.2:3b" }
}

agent "greeter" {
  model       = models.local.llama
  personality = "You write short greetings."
}

mission "hello" {
  directive = "Greet"
  commander {
    model = models.local.llama
  }
  agents = [agents.greeter]
  task "greet" {
    objective = "Write a greeting"
  }
}
`;
  mkdirSync(directory);
  writeFileSync(join(directory, 'main.hcl'), hcl);
}
