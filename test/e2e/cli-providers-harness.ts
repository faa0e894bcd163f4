/**
 * Runs one mission project through the real CLI (`node bin/sortie.js run DIR --json`) against
 * the scripted model server, through one provider, and reads back its exit code, its JSONL
 * events and the requests the server saw. Built on the project and process helpers of
 * agent-tools-harness.ts and the model blocks of engine-harness.ts.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { MissionEvent } from '../../src/base/events.ts';
import type { RecordedRequest, ScriptedModelServer, ScriptTurn } from '../../src/testing/index.ts';
import {
  CLI_ENV,
  jsonLines,
  ROOT,
  sortie,
  startModelServer,
  writeProject,
} from './agent-tools-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { eventsOf } from './engine-harness.ts';
import { PROTOCOL, type TestProvider } from '../helpers/model-preamble.ts';

/** Every provider, each run through the CLI by `describe.each`. */
export const PROVIDERS: TestProvider[] = ['openai', 'anthropic', 'gemini', 'ollama'];

/** The API key every run is given (`--var api_key=...`); it must never be printed. */
export const TEST_API_KEY = 'sk-provider-test';

/**
 * The header each provider's SDK sends its credential in (the installed Anthropic SDK sends
 * the key as a bearer token; Ollama gets a local placeholder key).
 */
export const CREDENTIAL_HEADERS: Record<TestProvider, string> = {
  openai: 'authorization',
  anthropic: 'authorization',
  gemini: 'x-goog-api-key',
  ollama: 'authorization',
};

/** What one CLI run left behind. */
export interface CliRun {
  status: number | null;
  stderr: string;
  /** The `--json` stream, one event per line. */
  events: MissionEvent[];
  server: ScriptedModelServer;
}

/** A project to run: its HCL (`MODEL` = the provider's model), the script and extra flags. */
export interface CliRunSpec {
  provider: TestProvider;
  hcl: string;
  turns: ScriptTurn[];
  /** `run` flags after `DIR MISSION --json` and the variables (e.g. `--keep-going`). */
  flags?: string[];
  mission: string;
}

/** The arguments of `sortie run` for a project served by `server`. */
async function runArguments(spec: CliRunSpec, server: ScriptedModelServer): Promise<string[]> {
  const project = await writeProject(spec.hcl, spec.provider);
  const stateDir = join(await temporaryDirectory('state'), 'state');
  return [
    'run',
    project,
    spec.mission,
    '--json',
    '--var',
    `api_key=${TEST_API_KEY}`,
    '--var',
    `base_url=${server.baseUrl(PROTOCOL[spec.provider])}`,
    '--state-dir',
    stateDir,
    ...(spec.flags ?? []),
  ];
}

/** Runs the mission to its end through the CLI. */
export async function runCli(spec: CliRunSpec): Promise<CliRun> {
  const server = await startModelServer(spec.turns);
  const run = await sortie(await runArguments(spec, server));
  return {
    status: run.status,
    stderr: run.stderr,
    events: jsonLines(run.stdout) as unknown as MissionEvent[],
    server,
  };
}

/**
 * Runs the mission through the CLI and sends SIGINT (Ctrl-C) once `inFlight` holds for the
 * requests the server has received or the `--json` output so far (checked on every change of
 * the child's output and on a short poll, since a request in flight prints nothing).
 */
export async function interruptCli(
  spec: CliRunSpec,
  inFlight: (server: ScriptedModelServer, stdout: string) => boolean,
): Promise<CliRun> {
  const server = await startModelServer(spec.turns);
  const child = spawn(process.execPath, ['bin/sortie.js', ...(await runArguments(spec, server))], {
    cwd: ROOT,
    env: { ...process.env, ...CLI_ENV },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let interrupted = false;
  const interruptOnce = (): void => {
    if (interrupted || !inFlight(server, stdout)) return;
    interrupted = true;
    child.kill('SIGINT');
  };
  const poll = setInterval(interruptOnce, 10);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    interruptOnce();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const status = await new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  clearInterval(poll);
  return { status, stderr, events: jsonLines(stdout) as unknown as MissionEvent[], server };
}

/** `task:status` of every task that reached a final state, in event order. */
export function taskOutcomes(events: readonly MissionEvent[]): string[] {
  const final = new Set(['task.succeeded', 'task.failed', 'task.cancelled', 'task.skipped']);
  return events.flatMap((event) =>
    final.has(event.type) && 'task' in event
      ? [`${event.task}:${event.type.slice('task.'.length)}`]
      : [],
  );
}

/** Each task's final state by name. */
export function outcomes(events: readonly MissionEvent[]): Record<string, string> {
  return Object.fromEntries(taskOutcomes(events).map((entry) => entry.split(':')));
}

/** The `model.request` events of one actor. */
export function requestsOf(
  events: readonly MissionEvent[],
  actor: string,
): Array<Extract<MissionEvent, { type: 'model.request' }>> {
  return eventsOf(events, 'model.request').filter((event) => event.actor === actor);
}

/** The parsed results of one tool's completed calls (of one actor, when given), in order. */
export function toolResults(
  events: readonly MissionEvent[],
  tool: string,
  actor?: string,
): unknown[] {
  return eventsOf(events, 'tool.completed')
    .filter((event) => event.tool === tool && (actor === undefined || event.actor === actor))
    .map((event) => JSON.parse(event.result) as unknown);
}

/** The index of the first event matching, for ordering assertions (-1 when none). */
export function indexOf(
  events: readonly MissionEvent[],
  matches: (event: MissionEvent) => boolean,
): number {
  return events.findIndex(matches);
}

/** The API model name each provider's model of `modelSetup` (helpers/model-preamble) sends. */
export const API_NAMES: Record<TestProvider, string> = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5-20251001',
  gemini: 'gemini-2.0-flash',
  ollama: 'qwen3:8b',
};

/** The request path each provider's SDK uses for a streamed model turn. */
export function wirePath(provider: TestProvider): string {
  switch (provider) {
    case 'openai':
    case 'ollama':
      return '/v1/responses';
    case 'anthropic':
      return '/v1/messages';
    case 'gemini':
      return `/v1beta/models/${API_NAMES.gemini}:streamGenerateContent?alt=sse`;
  }
}

/** The model name a request asked for: in the body, or (Gemini) in the path. */
export function requestedModel(request: RecordedRequest): string | undefined {
  if (request.protocol === 'gemini') return /\/models\/([^:]+):/.exec(request.path)?.[1];
  return (request.body as { model?: string } | undefined)?.model;
}
