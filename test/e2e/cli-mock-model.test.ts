/**
 * `--mock-model FILE` through the real CLI: a mission tried with scripted answers per actor,
 * no network and no key; an unmatched request shows the request and an entry to add; the
 * mock can be recorded into a cassette and a failed mocked run resumed with a completed file.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ENV, ROOT, sortieSync as sortie, type ChildResult } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const PLAN = `commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Ask the greeter for a greeting] }
  - tool: call_agent
    arguments: { name: greeter, task: Write a short greeting for world. }
  - tool: complete_subtask
`;
const DONE = `  - tool: task_complete
    arguments: { summary: "The greeter wrote: Hello, mock world!" }
`;
const GREETER = `agent:*/greeter:
  - text: Hello, mock world!
    usage: { input: 100, output: 20 }
`;

/** A path single-quoted for a POSIX shell, as the resume line quotes it. */
function quoted(path: string): string {
  return `'${path.replaceAll("'", `'\\''`)}'`;
}

/** Runs a command line in `sh` from the repository root, `sortie` being this checkout's CLI. */
function sortieInShell(line: string): ChildResult {
  const result = spawnSync(
    'sh',
    ['-c', `sortie() { "$NODE" "$ROOT/bin/sortie.js" "$@"; }\n${line}`],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...CLI_ENV, NODE: process.execPath, ROOT },
      timeout: 60_000,
      killSignal: 'SIGKILL',
    },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function folder(): string {
  return temporaryDirectorySync('mock');
}

function file(directory: string, name: string, text: string): string {
  const path = join(directory, name);
  writeFileSync(path, text);
  return path;
}

/** The summary lines of the line log: from `tasks:` to the end. */
function summary(stdout: string): string[] {
  return stdout.slice(stdout.indexOf('\ntasks:\n') + 1).split('\n');
}

// Each test starts one or two CLI children, slow on a loaded machine.
describe('sortie run --mock-model (child process)', { timeout: 120_000 }, () => {
  it('runs a mission from scripted answers with no key and exits 0', () => {
    const directory = folder();
    const mock = file(directory, 'mock.yaml', PLAN + DONE + GREETER);
    const run = sortie(
      ['run', 'examples/hello', '--mock-model', mock, '--state-dir', join(directory, 'state')],
      { OPENAI_API_KEY: undefined },
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(summary(run.stdout)).toEqual([
      'tasks:',
      '  greet  succeeded  The greeter wrote: Hello, mock world!',
      'costs:',
      '  openai.gpt_4o_mini  5 requests  120 tokens  <$0.0001',
      '  total               5 requests  120 tokens  <$0.0001',
      '',
    ]);
  });

  it('fails an unmatched request showing the request and an entry to add, then resumes with the completed file', () => {
    // A space and a quote in every path: the printed resume line must survive a shell.
    const directory = temporaryDirectorySync("mock's dir");
    const stateDir = join(directory, 'state');
    const mock = file(directory, 'mock.yaml', PLAN + GREETER);
    const run = sortie(['run', 'examples/hello', '--mock-model', mock, '--state-dir', stateDir]);
    expect(run.status).toBe(1);
    const [runId] = readdirSync(join(stateDir, 'runs'));
    // The end of a run that did not succeed says where its journal is and how to go on.
    expect(run.stderr).toBe(
      [
        `run ${runId} failed · <$0.0001 · journal ${join(stateDir, 'runs', String(runId), 'journal.jsonl')}`,
        `continue it with: sortie resume ${runId} examples/hello --state-dir ${quoted(stateDir)} --mock-model ${quoted(mock)}`,
        '',
      ].join('\n'),
    );
    expect(summary(run.stdout).slice(0, 8)).toEqual([
      'tasks:',
      '  greet  failed  no mock answer for commander:greet (turn 4): all 3 of its answers are used',
      '        last message: "{\\"status\\":\\"ok\\",\\"completed\\":{\\"index\\":0,\\"title\\":\\"Ask the greeter for a greeting\\"},\\"next\\":null,\\"remaining\\":0}"',
      '        tools offered: set_subtasks, get_subtasks, complete_subtask, call_agent, ask_agent, task_complete',
      `      add an answer to ${mock}, e.g.`,
      '        commander:greet:',
      '          - tool: task_complete',
      '            arguments: {}',
    ]);
    // The failed task starts again from scratch: its new commander gets the answers from the first.
    file(directory, 'mock.yaml', PLAN + DONE + GREETER);
    // The printed line itself, run by a shell, with `sortie` standing for this checkout's CLI.
    const printed = run.stderr.split('\n')[1]?.replace('continue it with: ', '') ?? '';
    const resumed = sortieInShell(printed);
    expect(resumed.stderr).toBe('');
    expect(resumed.status).toBe(0);
    expect(summary(resumed.stdout)[1]).toBe(
      '  greet  succeeded  The greeter wrote: Hello, mock world!',
    );
  });

  it('records the mock into a cassette that --replay-model then plays with no mock', () => {
    const directory = folder();
    const mock = file(directory, 'mock.yaml', PLAN + DONE + GREETER);
    const cassette = join(directory, 'cassette.jsonl');
    const state = ['--state-dir', join(directory, 'state')];
    const recorded = sortie([
      'run',
      'examples/hello',
      '--mock-model',
      mock,
      '--record',
      cassette,
      ...state,
    ]);
    expect(recorded.status).toBe(0);
    const replayed = sortie(['run', 'examples/hello', '--replay-model', cassette, ...state]);
    expect(replayed.stderr).toBe('');
    expect(replayed.status).toBe(0);
    expect(summary(replayed.stdout)[1]).toBe(
      '  greet  succeeded  The greeter wrote: Hello, mock world!',
    );
  });

  it('rejects a mock file that is not in the format, naming the file and the problem (exit 2)', () => {
    const directory = folder();
    const mock = file(
      directory,
      'mock.yaml',
      'commander:greet:\n  - tool: set_subtasks\n    argumnts: {}\n',
    );
    expect(sortie(['run', 'examples/hello', '--mock-model', mock])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: mock model ${mock}:3:5: unknown field "argumnts" in an answer (did you mean "arguments"?)\nhint: the format is in docs/testing.md ("Mock models")\n`,
    });
  });
});
