/**
 * Problems in a `--mock-model FILE` through the real CLI: each is a usage error (exit 2) or a
 * failed task whose message names what is wrong in full, with no stack trace.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sortieSync as sortie } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

function mockFile(text: string): { path: string; directory: string } {
  const directory = temporaryDirectorySync('mock-file');
  const path = join(directory, 'mock.yaml');
  writeFileSync(path, text);
  return { path, directory };
}

/** Seven levels of nine aliases each: 9^7 strings once expanded ("billion laughs"). */
const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...['b', 'c', 'd', 'e', 'f', 'g'].map(
    (name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[index]}`).join(',')}]`,
  ),
  '',
].join('\n');

// Each test starts a CLI child, slow on a loaded machine.
describe('sortie run --mock-model with a faulty file (child process)', { timeout: 120_000 }, () => {
  it('rejects a YAML alias bomb as a usage error (exit 2), not an internal error', () => {
    const { path } = mockFile(ALIAS_BOMB);
    expect(sortie(['run', 'examples/hello', '--mock-model', path])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: mock model ${path}: its aliases (*name) expand past the limit of 100 values; write the answers out instead\nhint: the format is in docs/testing.md ("Mock models")\n`,
    });
  });

  it('prints the whole reason when no key of the file names an actor (a misspelt key)', () => {
    const { path, directory } = mockFile('commander:gret:\n  - text: hi\n');
    const run = sortie([
      'run',
      'examples/hello',
      '--mock-model',
      path,
      '--state-dir',
      join(directory, 'state'),
    ]);
    expect(run.status).toBe(1);
    const failed = run.stdout
      .split('\n')
      .filter((line) => line.includes(' failed: '))
      .map((line) => line.replace(/^\S+ /, '').replace(/ · \d+ task .*$/, ''));
    expect(failed).toEqual([
      'task:greet  failed: no mock answer for commander:greet (turn 1): no key of the file names this actor',
      'mission:hello  failed: task "greet" failed: no mock answer for commander:greet (turn 1): no key of the file names this actor',
    ]);
  });

  it('names the line, column and closest field of a misspelt field (exit 2)', () => {
    const { path } = mockFile('commander:greet:\n  - text: hi\n  - tol: set_subtasks\n');
    expect(sortie(['run', 'examples/hello', '--mock-model', path])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: mock model ${path}:3:5: unknown field "tol" in an answer (did you mean "tool"?)\nhint: the format is in docs/testing.md ("Mock models")\n`,
    });
  });

  it('suggests submit_output, not task_complete again, after task_complete is refused for want of it', () => {
    const directory = temporaryDirectorySync('mock-output');
    const hello = readFileSync(join(ROOT, 'examples/hello/main.hcl'), 'utf8');
    writeFileSync(
      join(directory, 'main.hcl'),
      hello.replace(
        'objective = "Write a greeting for ${inputs.name}"',
        'objective = "Write a greeting for ${inputs.name}"\n    output = { greeting = string("The greeting", true) }',
      ),
    );
    const mock = join(directory, 'mock.yaml');
    writeFileSync(mock, 'commander:greet:\n  - tool: task_complete\n');
    const run = sortie([
      'run',
      directory,
      '--mock-model',
      mock,
      '--state-dir',
      join(directory, 'state'),
    ]);
    expect(run.status).toBe(1);
    const tasks = run.stdout.split('\n');
    const added = tasks.indexOf(`      add an answer to ${mock}, e.g.`);
    expect(tasks.slice(added + 1, added + 4)).toEqual([
      '        commander:greet:',
      '          - tool: submit_output',
      '            arguments: {"output":{}}',
    ]);
  });

  it('still refuses a key written twice, with its place, now that keys are checked in one pass', () => {
    const { path } = mockFile('commander:greet:\n  - text: hi\ncommander:greet:\n  - text: ho\n');
    expect(sortie(['run', 'examples/hello', '--mock-model', path])).toEqual({
      status: 2,
      stdout: '',
      stderr: `error: mock model ${path}:3:1: the key "commander:greet" is written twice\nhint: the format is in docs/testing.md ("Mock models")\n`,
    });
  });
});
