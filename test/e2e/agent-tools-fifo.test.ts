/**
 * Issue 25, item 2, through the real CLI: a FIFO in a slot is no regular file, so `file_read`
 * answers with an error and `file_grep` skips it instead of blocking the run for ever; and one
 * Ctrl-C (SIGINT) then ends the process with exit 130.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLI_ENV,
  cleanUpAll,
  delegatingTask,
  jsonLines,
  notesProject,
  SCRIBE as AGENT,
  reply,
  ROOT,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { until } from '../helpers/until.ts';

afterEach(cleanUpAll);

const HCL = notesProject();

/** A state directory whose mission memory holds `notes.md` and the FIFO `pipe`. */
async function stateWithFifo(): Promise<string> {
  const stateDir = join(await temporaryDirectory('fifo'), 'state');
  const memory = join(stateDir, 'missions', 'notes', 'memory');
  await mkdir(memory, { recursive: true });
  await writeFile(join(memory, 'notes.md'), 'the pipe is not a file\n');
  execFileSync('mkfifo', [join(memory, 'pipe')]);
  return stateDir;
}

describe('a FIFO in a slot (CLI)', () => {
  it('is refused by file_read, skipped by file_grep, and one SIGINT still exits 130', async () => {
    const stateDir = await stateWithFifo();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const server = await startModelServer(
      delegatingTask(
        'note',
        'scribe',
        [
          {
            match: { actor: AGENT },
            toolCalls: [
              { name: 'file_read', arguments: { slot: 'memory', path: 'pipe' } },
              { name: 'file_grep', arguments: { slot: 'memory', pattern: 'pipe' } },
            ],
          },
          // Held until the test has sent its one SIGINT: the run is then mid-turn.
          { ...reply(AGENT, 'Done.'), heldUntil: held },
        ],
        'Noted',
      ),
    );
    const child = spawn(
      process.execPath,
      [
        'bin/sortie.js',
        'run',
        await writeProject(HCL),
        '--json',
        '--var',
        'api_key=test-key',
        '--var',
        `base_url=${server.baseUrl('openai')}`,
        '--state-dir',
        stateDir,
      ],
      { cwd: ROOT, env: { ...process.env, ...CLI_ENV }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // A child that does not exit fails the test instead of outliving it.
    const killer = setTimeout(() => child.kill('SIGKILL'), 40_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let running = true;
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => {
        running = false;
        resolve(code);
      }),
    );
    // The agent's second turn reaching the server means both calls have settled: cancel there.
    // Past the killer's 40 s, so a hung child ends here through the killer, not the wait.
    await until('the second turn or the exit', () => !running || server.requests.length >= 4, {
      timeoutMs: 45_000,
    });
    child.kill('SIGINT');
    const status = await exited;
    clearTimeout(killer);
    release();
    expect(stderr).toBe('');
    expect(status).toBe(130);
    const results = jsonLines(stdout)
      .filter((event) => event.type === 'tool.completed' && event.actor === AGENT)
      .map((event) => event.result);
    expect(results).toEqual([
      JSON.stringify({
        status: 'error',
        error: '"pipe" is not a regular file: the file tools read and write regular files only',
      }),
      'notes.md:1: the pipe is not a file\n(1 match)',
    ]);
  }, 60_000);
});
