/**
 * The real CLI for crash tests: `sortie ARGS --json` against a scripted model server, killed
 * with SIGKILL after a number of its JSON event lines (or by the caller), and the journal it
 * left, read as the crash left it. A child streaming its lines as it runs, so the test can kill
 * it mid-run (cli-child.ts runs children to their end).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, watch } from 'node:fs';
import { join } from 'node:path';
import type { MissionEvent } from '../../src/base/events.ts';
import { parsedLine } from './agent-tools-harness.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';

/** A running CLI process. */
export interface Child {
  process: ChildProcess;
  exited: Promise<number | null>;
  /** Resolves with the run id once the first event line arrived. */
  runId: Promise<string>;
  stderr: () => string;
}

/** Where the CLI runs: its state directory and the model server's base URL. */
export interface SortieTarget {
  stateDir: string;
  baseUrl: string;
  /** Node's arguments that start the CLI (default the checkout's bin/sortie.js, the sources). */
  cli?: string[];
}

/**
 * Starts `sortie ARGS --json`; kills it with SIGKILL after `killAfter` event lines. `env` adds
 * to the child's environment (e.g. EDITOR).
 */
export function sortie(
  args: string[],
  target: SortieTarget,
  killAfter?: number,
  env: Record<string, string> = {},
): Child {
  const child = spawn(
    process.execPath,
    [
      ...(target.cli ?? ['bin/sortie.js']),
      ...args,
      '--json',
      '--state-dir',
      target.stateDir,
      '--var',
      'api_key=sk-test-crash',
      '--var',
      `base_url=${target.baseUrl}`,
    ],
    { cwd: ROOT, env: { ...process.env, ...CLI_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let lines = 0;
  let pending = '';
  let stderr = '';
  let foundRunId: (id: string) => void = () => undefined;
  const runId = new Promise<string>((resolve) => (foundRunId = resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      if (lines === 0) foundRunId((JSON.parse(line) as { runId: string }).runId);
      lines += 1;
      if (killAfter !== undefined && lines === killAfter) child.kill('SIGKILL');
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, exited, runId, stderr: () => stderr };
}

/**
 * The journal's events as a crash left them (a torn last line is skipped, as the reader does),
 * without the lines' checksums.
 */
export function journalOf(stateDir: string, runId: string): MissionEvent[] {
  const text = readFileSync(join(stateDir, 'runs', runId, 'journal.jsonl'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.endsWith('}'))
    .flatMap((line) => {
      try {
        return [parsedLine(line) as unknown as MissionEvent];
      } catch {
        return [];
      }
    });
}

/**
 * Resolves once the run's journal on disk holds an event `accepts` (checked now and on every
 * change in the state directory), so a test can kill the CLI at a point the journal is known to
 * have reached. Rejects when the child exits first.
 */
export async function journalReaches(
  child: Child,
  stateDir: string,
  accepts: (event: MissionEvent) => boolean,
): Promise<void> {
  const runId = await child.runId;
  const reached = (): boolean => {
    try {
      return journalOf(stateDir, runId).some(accepts);
    } catch {
      return false;
    }
  };
  if (reached()) return;
  // The run's folder may not exist yet when its first event is out: watch the whole state dir.
  const watcher = watch(stateDir, { recursive: true });
  try {
    await new Promise<void>((resolve, reject) => {
      watcher.on('change', () => {
        if (reached()) resolve();
      });
      watcher.on('error', reject);
      void child.exited.then((code) =>
        reject(new Error(`the CLI exited (${code}) before the journal got there`)),
      );
      // A change between the first check and the watch would otherwise go unseen.
      if (reached()) resolve();
    });
  } finally {
    watcher.close();
  }
}

/**
 * Runs `sortie run PROJECT` until the journal holds `actor`'s model request number `turn`
 * (the CLI then waits for that reply), kills it with SIGKILL and resolves with the run id.
 */
export async function killAtModelRequest(
  project: string,
  target: SortieTarget,
  at: { actor: string; turn: number },
): Promise<string> {
  const child = sortie(['run', project], target);
  await journalReaches(
    child,
    target.stateDir,
    (event) => event.type === 'model.request' && event.actor === at.actor && event.turn === at.turn,
  );
  child.process.kill('SIGKILL');
  const code = await child.exited;
  if (code !== null) throw new Error(`the CLI exited (${code}) before it was killed`);
  return child.runId;
}

/** `sortie resume RUN PROJECT` to its end; rejects with the CLI's stderr unless it exits 0. */
export async function resumeToEnd(
  runId: string,
  project: string,
  target: SortieTarget,
): Promise<void> {
  const child = sortie(['resume', runId, project], target);
  const code = await child.exited;
  if (code !== 0) throw new Error(`sortie resume exited with ${code}: ${child.stderr()}`);
}
