/**
 * Distributed runs for the end-to-end tests: the processes of test/e2e/queue-processes.ts, with
 * Redis's folder taken from the tests' temporary folders, and the set-up every queue test file
 * shares (scripted model server, redis-server, project folder, target, workers) in one place.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { ScriptedModelServer, type ScriptedModelServerOptions } from '../../src/testing/index.ts';
import { temporaryDirectorySync } from '../helpers/temp-dir.ts';
import { builtBin, builtCli } from './built-cli.ts';
import type { SortieTarget } from './cli-resume-harness.ts';
import type { QueuedRunOptions } from './queue-control-harness.ts';
import {
  startRedisIn,
  startWorker,
  stopWorker,
  type RedisServer,
  type WorkerOptions,
  type WorkerProcess,
} from './queue-processes.ts';

export {
  startWorker,
  stopWorker,
  waitForOutput,
  type RedisServer,
  type WorkerOptions,
  type WorkerProcess,
} from './queue-processes.ts';

/** Starts redis-server; `dir` (a fresh temporary folder if not given) keeps its data across a restart. */
export function startRedis(
  options: { aof?: boolean; dir?: string; port?: number } = {},
): Promise<RedisServer> {
  return startRedisIn(options.dir ?? temporaryDirectorySync('redis'), options);
}

/** What a queue test cleans up after its last test. */
export interface QueueTestParts {
  workers?: readonly WorkerProcess[];
  redis?: RedisServer;
  server?: { close(): Promise<void> };
}

/** Stops a queue test's workers, its Redis and its model server. */
export async function tearDownQueueTest(parts: QueueTestParts): Promise<void> {
  for (const worker of parts.workers ?? []) await stopWorker(worker);
  await parts.redis?.stop();
  await parts.server?.close();
}

/** A fresh temporary folder named after `name` holding `hcl` as its main.hcl. */
export function projectFolder(name: string, hcl: string): string {
  const folder = temporaryDirectorySync(name);
  writeFileSync(join(folder, 'main.hcl'), hcl);
  return folder;
}

/** What a queue test file starts before its tests. */
export interface QueueFileOptions {
  /** The prefix of its temporary folders. */
  name: string;
  /** The scripted model server's answers. */
  respond: NonNullable<ScriptedModelServerOptions['respond']>;
  /** The main.hcl of `project`; without it the file makes its own projects. */
  hcl?: string;
  /** How many workers start before the tests (none if not given), each with `worker`. */
  workers?: number;
  worker?: WorkerOptions;
  /** Runs what users run: the built CLI, for the run's process and every worker. */
  builtCli?: boolean;
}

/** A queue test file's parts, there once its set-up has run. */
export interface QueueFile {
  server: ScriptedModelServer;
  redis: RedisServer;
  /** The folder of `hcl` (an error to read when the file gave none). */
  project: string;
  target: SortieTarget;
  /** Those started before the tests and those a test adds: all stopped after the file. */
  workers: WorkerProcess[];
  /** Stops the workers so far and empties `workers` (for a file's afterEach). */
  stopWorkers(): Promise<void>;
  /** Where `startQueuedRun` runs the project at `root` (default `project`) on this file's queue. */
  runOptions(root?: string): QueuedRunOptions;
}

function started<Part>(part: Part | undefined, name: string): Part {
  if (part === undefined) throw new Error(`the queue test's ${name} has not started`);
  return part;
}

/**
 * Registers a queue test file's set-up and tear-down; the returned parts fill in before its
 * first test. Register it before the file's own hooks: theirs then run after its set-up and
 * before its tear-down (vitest runs after-hooks as a stack).
 */
export function queueTestForFile(options: QueueFileOptions): QueueFile {
  let server: ScriptedModelServer | undefined;
  let redis: RedisServer | undefined;
  let project: string | undefined;
  let target: SortieTarget | undefined;
  const workers: WorkerProcess[] = [];
  beforeAll(
    async () => {
      server = await ScriptedModelServer.start({ respond: options.respond });
      redis = await startRedis();
      if (options.hcl !== undefined) project = projectFolder(options.name, options.hcl);
      target = {
        stateDir: temporaryDirectorySync(`${options.name}-state`),
        baseUrl: server.baseUrl('anthropic'),
        ...(options.builtCli === true ? { cli: builtBin(await builtCli()) } : {}),
      };
      for (let count = 0; count < (options.workers ?? 0); count++) {
        workers.push(await startWorker(redis.url, target, options.worker));
      }
    },
    // The first test file to ask for the built CLI builds it (tsc), slow on a busy machine.
    options.builtCli === true ? 600_000 : 120_000,
  );
  afterAll(() => tearDownQueueTest({ workers, redis, server }));
  return {
    get server() {
      return started(server, 'model server');
    },
    get redis() {
      return started(redis, 'redis-server');
    },
    get project() {
      return started(project, 'project');
    },
    get target() {
      return started(target, 'target');
    },
    workers,
    stopWorkers: async () => {
      for (const worker of workers.splice(0)) await stopWorker(worker);
    },
    runOptions(root) {
      return {
        root: root ?? this.project,
        stateDir: this.target.stateDir,
        redisUrl: this.redis.url,
        baseUrl: this.target.baseUrl,
      };
    },
  };
}
