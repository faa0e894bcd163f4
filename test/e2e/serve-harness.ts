/**
 * `sortie serve` as users run it: the built CLI as a child process on an ephemeral port
 * (`--port 0`, the URL read from its first line), its output lines awaited one by one, a
 * scripted model server answering its runs, and helpers for the HTTP API (Node's fetch) and
 * its event streams. Nothing waits on a clock: every step waits for a line or an event.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RespondRequest, ScriptTurn } from '../../src/testing/index.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import { callsSoFar } from '../actors/resume/resume-fixture.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';
import { call } from '../helpers/script-turns.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { modelPreamble } from '../helpers/model-preamble.ts';

/** The protected input value the tests look for in every answer. */
export const PROTECTED_VALUE = 'tok-PROTECTED-4711';
/** The webhook's secret. */
export const HOOK_SECRET = 'hook-secret-5150';

/**
 * `greet` (a webhook trigger with a secret, max_parallel 1, a protected input its commander
 * echoes) and `ask` (its agent asks the person).
 */
export const SERVE_PROJECT = `
${modelPreamble()}agent "asker" {
  model       = models.main.gpt_4o_mini
  personality = "You ask the person."
  tools       = [builtins.human.ask]
}
mission "greet" {
  commander {
    model = models.main.gpt_4o_mini
  }
  max_parallel = 1
  trigger {
    webhook_path = "/hooks/greet"
    secret       = "${HOOK_SECRET}"
  }
  inputs = {
    name  = string("Who to greet", true)
    times = number("How often", { default = 1 })
    token = string("A token nobody may see", { protected = true, default = "unset" })
    note  = file("A note")
  }
  task "hello" {
    objective = "Greet \${inputs.name} \${inputs.times} times"
    output = {
      text = string("The greeting", true)
    }
  }
}
mission "ask" {
  commander {
    model = models.main.gpt_4o_mini
  }
  agents = [agents.asker]
  task "decide" {
    objective = "Decide with the person"
  }
}
`;

/** The greeting the commander of `greet` submits: it repeats the protected token. */
export function greeting(name: string): string {
  return `Hello ${name}, your token is ${PROTECTED_VALUE}`;
}

/** The scripted model's next step for each actor, from how far its conversation got. */
export function respondToServed(request: RespondRequest): ScriptTurn | undefined {
  const done = callsSoFar(request.body);
  const input = JSON.stringify(request.body);
  const name = /Greet (\w+)/.exec(input)?.[1] ?? 'nobody';
  const steps: Record<string, ScriptTurn[]> = {
    'commander:hello': [
      call('set_subtasks', { subtasks: ['Greet'] }),
      call('complete_subtask', {}),
      call('submit_output', { output: { text: greeting(name) } }),
      call('task_complete', { summary: `Greeted ${name}` }),
    ],
    'commander:decide': [
      call('set_subtasks', { subtasks: ['Ask'] }),
      call('call_agent', { name: 'asker', task: 'Ask the person' }),
      call('complete_subtask', {}),
      call('task_complete', { summary: 'Decided' }),
    ],
    'agent:decide/asker': [
      call('builtins_human_ask', { question: 'Deploy to which region?', choices: ['eu', 'us'] }),
      { text: 'The person chose.', usage: { input: 50, output: 5 } },
    ],
  };
  return steps[request.actor ?? '']?.[done];
}

/** A scripted model server for served runs; `hold` may delay a reply (return a delay). */
export async function startServedModel(
  hold?: (request: RespondRequest) => number | undefined,
): Promise<ScriptedModelServer> {
  return ScriptedModelServer.start({
    respond: (request) => {
      const turn = respondToServed(request);
      const delayMs = hold?.(request);
      return turn === undefined || delayMs === undefined ? turn : { ...turn, delayMs };
    },
  });
}

/** A project folder with SERVE_PROJECT and a state directory beside it. */
export async function serveProject(): Promise<{ project: string; stateDir: string; dir: string }> {
  const dir = await temporaryDirectory('serve');
  const project = join(dir, 'project');
  await (await import('node:fs/promises')).mkdir(project);
  await writeFile(join(project, 'main.hcl'), SERVE_PROJECT);
  return { project, stateDir: join(dir, 'state'), dir };
}

/** `sortie serve` started on a fresh serve project, with the project's folders. */
export async function serveFreshProject(
  model: ScriptedModelServer,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<{ served: Served; project: string; stateDir: string }> {
  const { project, stateDir } = await serveProject();
  return { served: await startServe(project, stateDir, model, args, env), project, stateDir };
}

/** A running `sortie serve`. */
export interface Served {
  process: ChildProcess;
  url: string;
  /** Every line printed so far on stdout. */
  lines: string[];
  stderr: () => string;
  /** Resolves with the first line (already printed or to come) that matches. */
  line(pattern: RegExp): Promise<string>;
  exited: Promise<number | null>;
}

/** Starts the built CLI's `sortie serve PROJECT --port 0 ARGS`; resolves once it listens. */
export async function startServe(
  project: string,
  stateDir: string,
  model: ScriptedModelServer,
  args: string[] = [],
  env: Record<string, string | undefined> = {},
): Promise<Served> {
  const pkg = await builtCli();
  const child = spawn(
    process.execPath,
    [
      ...builtBin(pkg),
      'serve',
      project,
      '--port',
      '0',
      '--state-dir',
      stateDir,
      '--var',
      'api_key=sk-test-serve',
      '--var',
      `base_url=${model.baseUrl('openai')}`,
      ...args,
    ],
    { cwd: ROOT, env: { ...process.env, ...CLI_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  const waiting: Array<{ pattern: RegExp; resolve: (line: string) => void }> = [];
  let pending = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      lines.push(line);
      for (const waiter of [...waiting]) {
        if (waiter.pattern.test(line)) {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = (pattern: RegExp): Promise<string> => {
    const found = lines.find((candidate) => pattern.test(candidate));
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      waiting.push({ pattern, resolve });
      void exited.then((code) =>
        reject(new Error(`sortie serve exited (${code}) before printing ${pattern}: ${stderr}`)),
      );
    });
  };
  const listening = await line(/^sortie serve listening on /);
  const url = /listening on (\S+)/.exec(listening)?.[1] ?? '';
  return { process: child, url, lines, stderr: () => stderr, line, exited };
}

/** Ends a test's server at once (SIGKILL) and resolves once it is gone. */
export async function stopServe(served: Served): Promise<void> {
  if (served.process.exitCode !== null || served.process.signalCode !== null) return;
  served.process.kill('SIGKILL');
  await served.exited;
}

/** A JSON request to the server; resolves with the status and the parsed body. */
export async function api(
  served: Served,
  method: 'GET' | 'POST',
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const response = await fetch(`${served.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...options.headers },
    ...(options.body !== undefined
      ? { body: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }
      : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: JSON.parse(text) as Record<string, unknown>,
    headers: response.headers,
  };
}

/** One event of a run's stream: its SSE id and the event object. */
export interface StreamedEvent {
  id: string;
  event: Record<string, unknown>;
}

/**
 * Reads a run's event stream until `until` accepts an event (or the stream ends); resolves
 * with the events read. `headers` may carry `Last-Event-ID` and the token.
 */
export async function readEvents(
  served: Pick<Served, 'url'>,
  runId: string,
  until: (event: Record<string, unknown>) => boolean,
  headers: Record<string, string> = {},
): Promise<StreamedEvent[]> {
  const controller = new AbortController();
  const response = await fetch(`${served.url}/api/runs/${runId}/events`, {
    headers,
    signal: controller.signal,
  });
  if (response.body === null) throw new Error(`no event stream: ${response.status}`);
  const events: StreamedEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      const messages = buffer.split('\n\n');
      buffer = messages.pop() ?? '';
      for (const message of messages) {
        const fields = Object.fromEntries(
          message.split('\n').map((line) => {
            const colon = line.indexOf(':');
            return [line.slice(0, colon), line.slice(colon + 1).trimStart()];
          }),
        );
        if (fields.data === undefined) continue;
        const event = JSON.parse(String(fields.data)) as Record<string, unknown>;
        events.push({ id: String(fields.id), event });
        if (until(event)) return events;
      }
    }
  } finally {
    controller.abort();
  }
  return events;
}
