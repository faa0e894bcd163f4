/**
 * The processes of distributed runs: a real `redis-server` on a free local port in a folder the
 * caller gives (append-only file on when asked), and real `sortie worker` processes of the CLI.
 * No vitest here, so `bench/queue.ts` runs them too. Everything waits on output lines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { CLI_ENV, ROOT } from './cli-child.ts';
import type { SortieTarget } from './cli-resume-harness.ts';

/** A running redis-server. */
export interface RedisServer {
  url: string;
  port: number;
  dir: string;
  process: ChildProcess;
  /** Stops it (SIGTERM, or SIGKILL when `kill`) and waits for its exit. */
  stop(kill?: boolean): Promise<void>;
}

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Resolves when `text` appears in the stream's output; rejects when the process exits first. */
export function waitForOutput(
  child: ChildProcess,
  stream: 'stdout' | 'stderr',
  text: string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      if (seen.includes(text)) {
        child[stream]?.off('data', onData);
        resolve();
      }
    };
    child[stream]?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`exited (${code}) before printing "${text}":\n${seen}`)),
    );
  });
}

/** Starts redis-server in `dir`, which keeps its data across a restart (AOF when `aof`). */
export async function startRedisIn(
  dir: string,
  options: { aof?: boolean; port?: number } = {},
): Promise<RedisServer> {
  const port = options.port ?? (await freePort());
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', ''];
  if (options.aof === true) args.push('--appendonly', 'yes', '--appendfsync', 'always');
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForOutput(child, 'stdout', 'Ready to accept connections');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: RedisServer = {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    process: child,
    stop: async (kill = false) => {
      child.kill(kill ? 'SIGKILL' : 'SIGTERM');
      await exited;
    },
  };
  return server;
}

/** A running `sortie worker`. */
export interface WorkerProcess {
  process: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}

/** How a `sortie worker` is started. */
export interface WorkerOptions {
  concurrency?: number;
  lockTimeout?: number;
  env?: Record<string, string>;
  /** Node's arguments that start the CLI (default bin/sortie.js; the bench runs a compiled copy). */
  cli?: string[];
}

/** Starts `sortie worker` against the scripted server and waits until it takes items. */
export async function startWorker(
  url: string,
  target: SortieTarget,
  options: WorkerOptions = {},
): Promise<WorkerProcess> {
  // The worker's own folder: it goes when the worker exits, not when a test or file ends.
  const cacheDir = mkdtempSync(join(tmpdir(), 'sortie-worker-cache-'));
  const child = spawn(
    process.execPath,
    [
      ...(options.cli ?? target.cli ?? ['bin/sortie.js']),
      'worker',
      '--queue',
      url,
      '--concurrency',
      String(options.concurrency ?? 4),
      '--lock-timeout',
      String(options.lockTimeout ?? 30),
      '--cache-dir',
      cacheDir,
      '--var',
      'api_key=sk-test-worker',
      '--var',
      `base_url=${target.baseUrl}`,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, ...CLI_ENV, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  void exited.then(() => rmSync(cacheDir, { recursive: true, force: true }));
  await waitForOutput(child, 'stderr', 'taking items from');
  return { process: child, exited, stderr: () => stderr };
}

/** Stops a worker gracefully (SIGTERM) and waits for it. */
export async function stopWorker(worker: WorkerProcess): Promise<number | null> {
  if (worker.process.exitCode !== null || worker.process.signalCode !== null) {
    return worker.process.exitCode;
  }
  worker.process.kill('SIGTERM');
  return worker.exited;
}
