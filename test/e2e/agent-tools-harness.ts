/**
 * Shared setup of the agent-tool end-to-end tests: an HCL project written into a temp dir,
 * the real CLI run as a child process against the ScriptedModelServer, loopback HTTP
 * servers that record what they received, and readers for the journal and `--json` output.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { ScriptedModelServer, type ScriptTurn } from '../../src/testing/index.ts';
import { CLI_ENV, sortieAsync, type ChildResult } from './cli-child.ts';
import { call, reply } from './engine-harness.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { projectText, type TestProvider } from '../helpers/model-preamble.ts';

export { call, reply, CLI_ENV };

export const ROOT = join(import.meta.dirname, '../..');

const cleanups: Array<() => Promise<void>> = [];

/** Closes the servers registered by the finished test. */
export async function cleanUpAll(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) await cleanup();
}

/**
 * Writes `main.hcl` with `api_key` (secret) and `base_url` variables and the provider's
 * model block `main`; `MODEL` in the HCL becomes the model reference.
 */
export async function writeProject(
  hcl: string,
  provider: TestProvider = 'openai',
): Promise<string> {
  const dir = await temporaryDirectory('project');
  await writeFile(join(dir, 'main.hcl'), projectText(hcl, provider));
  return dir;
}

/** The agent of the notes project (`notesProject`). */
export const SCRIBE = 'agent:note/scribe';

/**
 * The HCL of the memory tests: the agent `scribe` keeping notes for the task `note` of the
 * mission `notes`, which has a mission memory; `extra` goes into the mission block.
 */
export function notesProject(extra = ''): string {
  return `
agent "scribe" {
  model       = MODEL
  personality = "You keep notes."
}

mission "notes" {
  commander {
    model = MODEL
  }
  agents = [agents.scribe]
${extra}  memory {
    description = "Lessons that outlive a run"
  }
  task "note" {
    objective = "Keep notes"
  }
}
`;
}

/** A scripted model server closed by `cleanUpAll`. */
export async function startModelServer(turns: ScriptTurn[]): Promise<ScriptedModelServer> {
  const server = await ScriptedModelServer.start({ turns });
  cleanups.push(() => server.close());
  return server;
}

export type CliResult = ChildResult;

/**
 * Runs `node bin/sortie.js ARGS` without blocking (this process serves the scripted model
 * server and the test HTTP servers the child talks to).
 */
export function sortie(args: string[]): Promise<CliResult> {
  return sortieAsync(args);
}

/** An error result's content as a tool returns it (and the `--json` output shows it). */
export function errorText(message: string): string {
  return JSON.stringify({ status: 'error', error: message });
}

/** Parses JSON lines (the `--json` output or a journal, without its lines' checksums). */
export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .trimEnd()
    .split('\n')
    .filter((line) => line !== '')
    .map(parsedLine);
}

/** One JSON line as an object, without the checksum a journal line ends with. */
export function parsedLine(line: string): Record<string, unknown> {
  const { $crc: _checksum, ...event } = JSON.parse(line) as Record<string, unknown>;
  return event;
}

/** The run directories of a state directory, oldest first (run ids sort by time). */
export async function runDirs(stateDir: string): Promise<string[]> {
  const ids = (await readdir(join(stateDir, 'runs'))).sort();
  return ids.map((id) => join(stateDir, 'runs', id));
}

/** Every file below a directory, with its text (binary files included as latin1). */
export async function filesBelow(dir: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((entry) => entry.isFile());
  return Promise.all(
    files.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path, text: await readFile(path, 'latin1') };
    }),
  );
}

/**
 * A commander that plans one step, hands it to `agent` (whose own turns come from
 * `agentTurns`), completes it and finishes with `summary`.
 */
export function delegatingTask(
  task: string,
  agent: string,
  agentTurns: ScriptTurn[],
  summary: string,
): ScriptTurn[] {
  const commander = `commander:${task}`;
  return [
    call(commander, 'set_subtasks', { subtasks: ['Do it'] }),
    call(commander, 'call_agent', { name: agent, task: `work on ${task}` }),
    ...agentTurns,
    call(commander, 'complete_subtask'),
    call(commander, 'task_complete', { summary }),
  ];
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** A loopback HTTP server on a free port that records each request it answers. */
export async function startHttpServer(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; received: ReceivedRequest[] }> {
  const received: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    received.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
    });
    answer(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${port}`, received };
}

/**
 * The forms a leaked value could take in text sortie writes: raw, JSON-escaped (once and
 * twice: a tool result is JSON inside a JSON event line), and URL-encoded (a server echoing
 * the request URL, as paging links often do).
 */
export function leakForms(value: string): string[] {
  return [
    value,
    JSON.stringify(value).slice(1, -1),
    JSON.stringify(JSON.stringify(value)).slice(1, -1),
    encodeURIComponent(value),
    new URLSearchParams([['', value]]).toString().slice(1),
  ];
}

/**
 * The `tool.completed` events in the order their calls were made: the calls of one reply run
 * together and complete in any order.
 */
export function completedInCallOrder<Event extends object>(events: readonly Event[]): Event[] {
  const field = (event: Event, name: string): unknown => (event as Record<string, unknown>)[name];
  const callIdOf = (event: Event): unknown => field(event, 'callId');
  const callOrder = events.filter((event) => field(event, 'type') === 'tool.called').map(callIdOf);
  return events
    .filter((event) => field(event, 'type') === 'tool.completed')
    .sort((a, b) => callOrder.indexOf(callIdOf(a)) - callOrder.indexOf(callIdOf(b)));
}
