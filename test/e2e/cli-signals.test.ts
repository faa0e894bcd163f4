/**
 * The signal watch through the real CLI: a commander that stalls, loops and hands the same
 * task over twice gets a line for each in the plain log, an event in `--json` and the
 * journal, and the run goes on as before; `stall_turns` sets the threshold; the shipped
 * examples, replayed from their cassettes, raise none.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_ENV, ROOT, sortieSync as sortie } from './cli-child.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

/** A commander that plans, asks for its plan three times and gives the greeter one task twice. */
const MOCK = `commander:greet:
  - tool: set_subtasks
    arguments: { subtasks: [Ask the greeter for a greeting] }
  - tool: get_subtasks
  - tool: get_subtasks
  - tool: get_subtasks
  - tool: call_agent
    arguments: { name: greeter, task: Write a short greeting for world. }
  - tool: call_agent
    arguments: { name: greeter, task: "write a short greeting  for world. " }
  - tool: complete_subtask
  - tool: task_complete
    arguments: { summary: "The greeter wrote: Hello!" }
agent:*/greeter:
  - text: Hello, mock world!
  - text: Hello again!
`;

function folder(): string {
  return temporaryDirectorySync('signals');
}

/** The signal events of the only run in a state directory's journal. */
function journaledSignals(stateDir: string): Array<Record<string, unknown>> {
  const [runId] = readdirSync(join(stateDir, 'runs'));
  const journal = readFileSync(join(stateDir, 'runs', String(runId), 'journal.jsonl'), 'utf8');
  return journal
    .split('\n')
    .filter((line) => line.includes('"signal.raised"'))
    .map((line) => JSON.parse(line.slice(0, line.lastIndexOf('}') + 1)) as Record<string, unknown>)
    .filter((event) => event.type === 'signal.raised');
}

/** The lines of a plain log from the second column on (time stamps dropped). */
function logLines(stdout: string): string[] {
  return stdout.split('\n').map((line) => line.replace(/^\d\d:\d\d\.\d /, ''));
}

describe('signals through the CLI', { timeout: 120_000 }, () => {
  it('prints a line for each signal, journals it, and leaves the run as it was', () => {
    const directory = folder();
    const mock = join(directory, 'mock.yaml');
    writeFileSync(mock, MOCK);
    const stateDir = join(directory, 'state');
    const run = sortie(['run', 'examples/hello', '--mock-model', mock, '--state-dir', stateDir]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const signals = logLines(run.stdout).filter((line) =>
      /^commander:greet {2}(looping|stalled|re-delegating)/.test(line),
    );
    expect(signals).toEqual([
      'commander:greet  looping: get_subtasks called 3 times with the same arguments',
      'commander:greet  stalled: 6 model turns without completing a subtask',
      'commander:greet  re-delegating: the same task given to greeter 2 times · {"name":"greeter","task":"write a short greeting  for world. "}',
    ]);
    expect(run.stdout).toContain('\n  greet  succeeded  The greeter wrote: Hello!\n');
    expect(
      journaledSignals(stateDir).map(({ signal, count, actor }) => [signal, count, actor]),
    ).toEqual([
      ['loop', 3, 'commander:greet'],
      ['stall', 6, 'commander:greet'],
      ['redelegation', 2, 'commander:greet'],
    ]);
  });

  it('gives --json the signal with what it saw', () => {
    const directory = folder();
    const mock = join(directory, 'mock.yaml');
    writeFileSync(mock, MOCK);
    const run = sortie([
      'run',
      'examples/hello',
      '--mock-model',
      mock,
      '--state-dir',
      join(directory, 'state'),
      '--json',
    ]);
    expect(run.status).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((event) => event.type === 'signal.raised')
      .map(({ seq: _seq, time: _time, runId: _runId, ...event }) => event);
    expect(events).toEqual([
      {
        type: 'signal.raised',
        actor: 'commander:greet',
        signal: 'loop',
        count: 3,
        message: 'looping: get_subtasks called 3 times with the same arguments',
        tool: 'get_subtasks',
        arguments: '{}',
      },
      {
        type: 'signal.raised',
        actor: 'commander:greet',
        signal: 'stall',
        count: 6,
        message: 'stalled: 6 model turns without completing a subtask',
      },
      {
        type: 'signal.raised',
        actor: 'commander:greet',
        signal: 'redelegation',
        count: 2,
        message: 're-delegating: the same task given to greeter 2 times',
        tool: 'call_agent',
        arguments: '{"name":"greeter","task":"write a short greeting  for world. "}',
      },
    ]);
  });

  it("takes the stall threshold from the commander's stall_turns", () => {
    const directory = folder();
    const hcl = readFileSync(join(ROOT, 'examples/hello/main.hcl'), 'utf8');
    expect(hcl).toContain('  commander {\n');
    writeFileSync(
      join(directory, 'main.hcl'),
      hcl.replace('  commander {\n', '  commander {\n    stall_turns = 2\n'),
    );
    const mock = join(directory, 'mock.yaml');
    writeFileSync(mock, MOCK);
    const stateDir = join(directory, 'state');
    const run = sortie(['run', directory, '--mock-model', mock, '--state-dir', stateDir]);
    expect(run.status).toBe(0);
    expect(journaledSignals(stateDir).filter((event) => event.signal === 'stall')).toMatchObject([
      { count: 2, message: 'stalled: 2 model turns without completing a subtask' },
    ]);
  });

  it('refuses a stall_turns below 1 with its position', () => {
    const directory = folder();
    const hcl = readFileSync(join(ROOT, 'examples/hello/main.hcl'), 'utf8');
    writeFileSync(
      join(directory, 'main.hcl'),
      hcl.replace('  commander {\n', '  commander {\n    stall_turns = 0\n'),
    );
    const verify = sortie(['verify', directory]);
    expect(verify.status).toBe(2);
    expect(verify.stdout + verify.stderr).toContain(
      'error: stall_turns must be 1 or more\n  --> main.hcl:22:19\n',
    );
  });

  for (const example of ['hello', 'research', 'bookshop', 'datasets']) {
    it(`raises no signal replaying examples/${example} (its README's offline command)`, () => {
      const readme = readFileSync(join(ROOT, 'examples', example, 'README.md'), 'utf8');
      // hello's README runs the checkout's CLI (`node bin/sortie.js run …`): the same command.
      const line = readme
        .split('\n')
        .map((text) => text.replace(/^node bin\/sortie\.js /, 'sortie '))
        .find(
          (text) =>
            text.startsWith(`sortie run examples/${example}`) && text.includes('--replay-model'),
        );
      expect(line).toBeDefined();
      const stateDir = join(folder(), 'state');
      const run = spawnSync(
        'sh',
        [
          '-c',
          `sortie() { "$NODE" "$ROOT/bin/sortie.js" "$@"; }\n${line} --json --state-dir "$STATE"`,
        ],
        {
          cwd: ROOT,
          encoding: 'utf8',
          env: { ...process.env, ...CLI_ENV, NODE: process.execPath, ROOT, STATE: stateDir },
          timeout: 60_000,
          killSignal: 'SIGKILL',
        },
      );
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('"type":"run.finished"');
      expect(run.stdout).not.toContain('"type":"signal.raised"');
    });
  }
});
