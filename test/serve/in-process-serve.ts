/**
 * `startServer` in the test's own process on an ephemeral loopback port, for the tests that
 * need the server's clock or the moment a run stands still: the project of the e2e harness,
 * a scripted model server whose replies a test holds until it lets them go, and a way to stop
 * the server (its running runs cancelled, resumable, as on SIGTERM after the grace).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openProject } from '../../src/run/project.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../src/serve/index.ts';
import { ScriptedModelServer, type RespondRequest } from '../../src/testing/index.ts';
import { respondToServed, SERVE_PROJECT } from '../e2e/serve-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';

/** A promise and the function that settles it. */
export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

/** A promise settled from outside. */
export function deferred(): Deferred {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => (resolve = settle));
  return { promise, resolve };
}

/**
 * A scripted model server answering as the e2e harness does; `hold` may return a promise that
 * holds a reply until it settles.
 */
export function holdingModel(
  hold: (request: RespondRequest) => Promise<void> | undefined,
): Promise<ScriptedModelServer> {
  return ScriptedModelServer.start({
    respond: (request) => {
      const turn = respondToServed(request);
      const heldUntil = hold(request);
      return turn === undefined || heldUntil === undefined ? turn : { ...turn, heldUntil };
    },
  });
}

/** A project folder with the harness's project and a state directory beside it. */
export async function projectFolder(): Promise<{ project: string; stateDir: string; dir: string }> {
  const dir = await temporaryDirectory('serve-stream');
  const project = join(dir, 'project');
  await mkdir(project);
  await writeFile(join(project, 'main.hcl'), SERVE_PROJECT);
  return { project, stateDir: join(dir, 'state'), dir };
}

/** A server of this process and the lines it logged. */
export interface InProcessServer {
  server: RunningServer;
  url: string;
  lines: string[];
  /** Resolves with the first line (logged or to come) that matches. */
  line(pattern: RegExp): Promise<string>;
  /** Cancels its running runs (they stay resumable) and closes. */
  stop(): Promise<void>;
}

/** Starts a server on PROJECT's missions; `resume` resumes what a stopped server left. */
export async function startInProcess(
  folder: { project: string; stateDir: string },
  model: ScriptedModelServer,
  options: Pick<ServeOptions, 'clock' | 'keepAliveMs' | 'mcpPort' | 'mcpSessionIdleMs'> = {},
): Promise<InProcessServer> {
  const project = await openProject(folder.project, {
    vars: { api_key: 'sk-test-stream', base_url: model.baseUrl('openai') },
    env: {},
  });
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  const server = await startServer({
    project,
    stateDir: folder.stateDir,
    runIndex: undefined,
    host: '127.0.0.1',
    port: 0,
    token: undefined,
    corsOrigin: undefined,
    queueLimit: 10,
    resume: true,
    version: '0.0.0-test',
    log: (line) => {
      lines.push(line);
      for (const waiter of waiting.filter((candidate) => candidate.pattern.test(line))) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    },
    ...options,
  });
  return {
    server,
    url: server.url,
    lines,
    line: (pattern) => {
      const seen = lines.find((candidate) => pattern.test(candidate));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
    stop: () => server.stop(Promise.resolve()),
  };
}

/** Starts a run of `greet` through the API; resolves with its id. */
export async function startGreeting(url: string): Promise<string> {
  const response = await fetch(`${url}/api/missions/greet/runs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ inputs: { name: 'Cy' } }),
  });
  return String(((await response.json()) as { run_id: unknown }).run_id);
}
