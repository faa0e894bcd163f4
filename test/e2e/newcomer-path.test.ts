/**
 * A new user's path with the built CLI only (compiled into a folder of its own, no sources, no
 * tsx), from a clean folder, offline and with no key: `sortie init`, a run with the mock model
 * recorded into a cassette, a run replaying that cassette, a replayed run cancelled with SIGINT
 * while held at a breakpoint (in tmux: breakpoints need the TUI), and its `resume` offline by
 * run id alone; then `fork --edit` of the first run with EDITOR set to a script, its `diff`
 * and its lineage in `runs`.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtCli } from './built-cli.ts';
import { CLI_ENV } from './cli-child.ts';
import { TmuxTerminal } from './tmux-terminal.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';

const run = promisify(execFile);
const base = temporaryDirectorySync('newcomer');
/** The built CLI (test/e2e/built-cli.ts): bin/sortie.js, dist/, the checkout's dependencies. */
let pkg: string;
let bin: string;
/** The user's clean folder, where every command runs. */
const user = join(base, 'user');
const stateHome = join(base, 'state');
const ENV = { ...CLI_ENV, SORTIE_RUN_SOURCES: undefined, SORTIE_HOME: undefined };

/** `sortie ARGS` with the built CLI in the user's folder (a pipe: the line log). */
async function sortie(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: user,
      env: { ...process.env, ...ENV, XDG_STATE_HOME: stateHome, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The run ids of the run index, oldest first. */
function indexedRunIds(): string[] {
  const text = readFileSync(join(stateHome, 'sortie', 'runs.jsonl'), 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((line) => (JSON.parse(line) as { runId: string }).runId);
}

const SUMMARY = [
  'tasks:',
  '  greet  succeeded  The greeter wrote: Hello, world! Good to have you here.',
  'costs:',
  '  openai.gpt_4o_mini  5 requests  132 tokens  <$0.0001',
  '  total               5 requests  132 tokens  <$0.0001',
  '',
].join('\n');

const summaryOf = (stdout: string): string => stdout.slice(stdout.indexOf('tasks:\n'));

beforeAll(async () => {
  pkg = await builtCli();
  bin = join(pkg, 'bin', 'sortie.js');
  mkdirSync(user);
}, 600_000);

// Sequential steps of one user; each starts the built CLI, slow on a loaded machine.
describe(
  'a new user with the built CLI (clean folder, offline, no key)',
  { timeout: 120_000 },
  () => {
    it('inits a project and runs it with its mock model, recording a cassette', async () => {
      expect(existsSync(join(pkg, 'src'))).toBe(false);
      const init = await sortie(['init', 'demo']);
      expect(init.code).toBe(0);
      expect(init.stdout.split('\n')[0]).toBe(
        'created demo/main.hcl, demo/mock.yaml, demo/README.md, demo/.gitignore',
      );
      const recorded = await sortie([
        ...['run', 'demo', '--mock-model', 'demo/mock.yaml', '--record', 'demo/cassette.jsonl'],
      ]);
      expect(recorded.stderr).toBe('');
      expect(recorded.code).toBe(0);
      expect(summaryOf(recorded.stdout)).toBe(SUMMARY);
    });

    it('replays the cassette with no mock and no key', async () => {
      const replayed = await sortie(['run', 'demo', '--replay-model', 'demo/cassette.jsonl']);
      expect(replayed.stderr).toBe('');
      expect(replayed.code).toBe(0);
      expect(summaryOf(replayed.stdout)).toBe(SUMMARY);
    });

    it('cancels a replayed run with SIGINT mid-way and resumes it offline by its id', async () => {
      const terminal = new TmuxTerminal(join(base, 'tmux.socket'), 'newcomer');
      const exitFile = join(base, 'exit-code');
      const environment = [
        ...['PATH', 'HOME', 'LANG', 'TMPDIR'].flatMap((name) =>
          process.env[name] === undefined ? [] : [`'${name}=${process.env[name]}'`],
        ),
        `'XDG_STATE_HOME=${stateHome}'`,
        "'TERM=xterm-256color'",
        "'NO_COLOR=1'",
      ].join(' ');
      const args = 'run demo --replay-model demo/cassette.jsonl --break actor:agent:greet/greeter';
      terminal.start(
        `cd '${user}' && env -i ${environment} '${process.execPath}' '${bin}' ${args}; echo $? > '${exitFile}'`,
      );
      try {
        await terminal.until('the greeter held', () =>
          terminal.screen().includes('greeter · held before model request'),
        );
        // SIGINT to the CLI itself: the shell's only child.
        const shell = terminal.tmux('display', '-p', '-t', 'newcomer', '#{pane_pid}').trim();
        const cli = execFileSync('pgrep', ['-P', shell], { encoding: 'utf8' }).trim();
        process.kill(Number(cli), 'SIGINT');
        await terminal.until('the run cancelled', () => terminal.screen().includes('run finished'));
        terminal.press('q');
        const exitCode = (): string => (existsSync(exitFile) ? readFileSync(exitFile, 'utf8') : '');
        await terminal.until('the CLI to exit', () => exitCode().endsWith('\n'));
        expect(exitCode()).toBe('130\n');
      } finally {
        terminal.close();
      }
      const [runId] = indexedRunIds().slice(-1);
      const resumed = await sortie([
        ...['resume', String(runId), '--replay-model', 'demo/cassette.jsonl', '--quiet'],
      ]);
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toBe(SUMMARY);
      expect((await sortie(['show', String(runId)])).stdout.split('\n')[0]).toBe(
        `run ${String(runId)} · hello · succeeded (resumed)`,
      );
    });

    it('forks the first run at the commander turn that calls the greeter, edited in EDITOR', async () => {
      const [first] = indexedRunIds();
      const journal = readFileSync(
        join(user, 'demo/.sortie/runs', String(first), 'journal.jsonl'),
        'utf8',
      )
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as { seq: number; type: string; message?: unknown });
      const at = journal.find(
        (event) =>
          event.type === 'model.response' && JSON.stringify(event.message).includes('call_agent'),
      )?.seq;
      const editor = join(base, 'edit.sh');
      writeFileSync(editor, `#!/bin/sh\nsed -i 's/for world/for Mars/' "$1"\n`);
      chmodSync(editor, 0o755);
      const forked = await sortie(
        ['fork', String(first), '--at', String(at), '--edit', '--mock-model', 'demo/mock.yaml'],
        { EDITOR: editor },
      );
      expect(forked.code).toBe(0);
      const [forkId] = indexedRunIds().slice(-1);
      expect(forked.stderr).toBe(
        `forked run ${String(forkId)} from ${String(first)} at ${String(at)} (model.response of commander:greet), edited\n`,
      );
      expect(forked.stdout).toMatch(
        /commander:greet {2}→ call_agent \{"name":"greeter","task":"Write a short, warm greeting for Mars\."\}\n/,
      );
      expect(summaryOf(forked.stdout)).toBe(SUMMARY);
      const diff = await sortie(['diff', String(first), String(forkId)]);
      expect(diff.stdout.split('\n').slice(1, 5)).toEqual([
        `B ${String(forkId)} · forked from A at seq ${String(at)}`,
        'commander:greet: parts at message 4 (A 9 messages, B 9)',
        '  4 A assistant → call_agent {"name":"greeter","task":"Write a short, warm greeting for world."}',
        '    B assistant → call_agent {"name":"greeter","task":"Write a short, warm greeting for Mars."}',
      ]);
      const runs = (await sortie(['runs'])).stdout.split('\n');
      expect(runs.find((line) => line.startsWith(String(forkId)))).toMatch(
        new RegExp(`${String(first)}@${String(at)}$`),
      );
    });
  },
);
