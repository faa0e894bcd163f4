/**
 * A project for `sortie eval` tests: examples/hello with an eval of 3 cases × 2 variants ×
 * 3 repeats in `.evals/`, and a mock-model file under which the `curt` variant (its greeter's
 * personality says so) answers "Hi." where `warm` answers "Hello there!". The case `ada`
 * expects a summary containing "Hello", so `curt` fails that case and only that one.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI_ENV, ROOT, type ChildResult } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

export const EVAL = `eval "greetings" {
  mission     = "hello"
  repeat      = 3
  concurrency = 4

  case "ada" {
    inputs = { name = "Ada" }
    expect "summary" {
      contains = "Hello"
    }
  }
  case "grace" {
    inputs = { name = "Grace" }
  }
  case "alan" {
    inputs = { name = "Alan" }
  }

  variant "warm" {}
  variant "curt" {
    personalities = { greeter = "You are curt." }
  }

  expect "max" {
    commander_turns     = 4
    rejected_tool_calls = 0
  }
}
`;

export const MOCK = `commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Ask the greeter for a greeting] }
  - tool: call_agent
    arguments: { name: greeter, task: Write a short greeting. }
  - tool: complete_subtask
  - when: { contains: "Hi." }
    tool: task_complete
    arguments: { summary: "Hi." }
  - tool: task_complete
    arguments: { summary: "Hello there!" }
agent:*/greeter:
  - when: { contains: "curt" }
    text: Hi.
    usage: { input: 50, output: 5 }
  - text: Hello there!
    usage: { input: 100, output: 20 }
`;

/** A fresh project folder with the eval and the mock file; returns their paths. */
export function evalProject(evalText: string = EVAL): {
  root: string;
  mock: string;
  stateDir: string;
} {
  const root = temporaryDirectorySync('eval');
  cpSync(join(ROOT, 'examples/hello/main.hcl'), join(root, 'main.hcl'));
  mkdirSync(join(root, '.evals'));
  writeFileSync(join(root, '.evals', 'greetings.hcl'), evalText);
  const mock = join(root, 'mock.yaml');
  writeFileSync(mock, MOCK);
  return { root, mock, stateDir: join(root, 'state') };
}

/**
 * Runs `sortie ARGS` (bin/sortie.js) to its end; `onLine` sees each stdout line as it comes
 * and may kill the child (`kill()`), for crash tests.
 */
export function sortieEval(
  args: string[],
  onLine?: (line: string, kill: () => void) => void,
): Promise<ChildResult> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/sortie.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) onLine?.(line, () => child.kill('SIGKILL'));
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/** A report's text with run ids and durations replaced, for comparing two reports. */
export function withoutRunIdsAndTimes(text: string): string {
  return text.replace(/\d{8}T\d{9}Z-[0-9a-f]{6}/g, 'RUN').replace(/\d+\.\d+s\/\d+\.\d+s/g, 'Ts/Ts');
}
