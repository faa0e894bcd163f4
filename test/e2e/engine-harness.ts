/**
 * Shared setup of the engine's end-to-end tests: an HCL project written into a temp dir and
 * loaded with `loadProject`, a ScriptedModelServer behind the real SDKs, and `startRun` with
 * every event collected.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadProject } from '../../src/config/index.ts';
import type { RunHandle, RunOptions, RunResult } from '../../src/actors/contracts.ts';
import { startRun, type StartRunDependencies } from '../../src/run/start-run.ts';
import type { Message } from '../../src/models/model-types.ts';
import type { MissionEvent } from '../../src/base/events.ts';
import { ScriptedModelServer } from '../../src/testing/index.ts';
import type { ScriptTurn } from '../../src/testing/index.ts';
import { temporaryDirectory } from '../helpers/temp-dir.ts';
import { PROTOCOL, projectText, type TestProvider } from '../helpers/model-preamble.ts';

export interface EngineRun {
  result: RunResult;
  events: MissionEvent[];
  server: ScriptedModelServer;
  handle: RunHandle;
}

export interface RunSpec {
  provider?: TestProvider;
  /** HCL after the variables and model block; `MODEL` is replaced by the model reference. */
  hcl: string;
  turns: ScriptTurn[];
  mission: string;
  inputs?: Record<string, unknown>;
  options?: Partial<RunOptions>;
  dependencies?: StartRunDependencies;
  /** Called with the handle right after start (cancel tests). */
  onStart?: (handle: RunHandle, events: MissionEvent[]) => void;
  /** The script is meant to raise signals; any other run raising one fails (issue 30: no false signal). */
  signals?: boolean;
}

const cleanups: Array<() => Promise<void>> = [];

/** Closes servers and removes temp dirs of the finished test. */
export async function cleanUp(): Promise<void> {
  for (const cleanup of cleanups.splice(0)) await cleanup();
}

/** Writes the project, starts the server, runs the mission through startRun. */
export async function runEngine(spec: RunSpec): Promise<EngineRun> {
  const provider = spec.provider ?? 'openai';
  const server = await ScriptedModelServer.start({ turns: spec.turns });
  const dir = await temporaryDirectory('engine');
  cleanups.push(async () => {
    await server.close();
  });
  await writeFile(join(dir, 'main.hcl'), projectText(spec.hcl, provider));
  const config = await loadProject(dir, {
    vars: { api_key: 'test-key', base_url: server.baseUrl(PROTOCOL[provider]) },
    env: {},
  });
  const events: MissionEvent[] = [];
  const handle = startRun(
    {
      config,
      mission: spec.mission,
      inputs: spec.inputs ?? {},
      stateDir: join(dir, '.sortie'),
      subscribers: [(event) => events.push(event)],
      ...spec.options,
    },
    spec.dependencies,
  );
  spec.onStart?.(handle, events);
  const result = await handle.done;
  const raised = eventsOf(events, 'signal.raised');
  if (spec.signals !== true && raised.length > 0) {
    const seen = raised.map((event) => `${event.actor} ${event.signal}: ${event.message}`);
    throw new Error(`a signal in a mission not meant to raise one: ${seen.join('; ')}`);
  }
  return { result, events, server, handle };
}

/** The events of one type, narrowed. */
export function eventsOf<T extends MissionEvent['type']>(
  events: readonly MissionEvent[],
  type: T,
): Array<Extract<MissionEvent, { type: T }>> {
  return events.filter((event): event is Extract<MissionEvent, { type: T }> => event.type === type);
}

/** A commander turn calling one tool. */
export function call(
  actor: string | RegExp,
  name: string,
  args: Record<string, unknown> = {},
  match: Omit<NonNullable<ScriptTurn['match']>, 'actor'> = {},
): ScriptTurn {
  return { match: { actor, ...match }, toolCalls: [{ name, arguments: args }] };
}

/** A text reply of an actor (agents answer with text). */
export function reply(
  actor: string | RegExp,
  text: string,
  match: Omit<NonNullable<ScriptTurn['match']>, 'actor'> = {},
): ScriptTurn {
  return { match: { actor, ...match }, text };
}

/** The plain commander script: plan one step, call the agent, complete, finish. */
export function plainTask(
  task: string,
  agent: string | null,
  summary: string,
  extra: ScriptTurn[] = [],
): ScriptTurn[] {
  const commander = `commander:${task}`;
  const turns: ScriptTurn[] = [call(commander, 'set_subtasks', { subtasks: ['Do it'] })];
  if (agent !== null) {
    turns.push(call(commander, 'call_agent', { name: agent, task: `work on ${task}` }));
    turns.push(reply(`agent:${task}/${agent}`, `${agent} result for ${task}`));
  }
  turns.push(...extra);
  turns.push(call(commander, 'complete_subtask'));
  turns.push(call(commander, 'task_complete', { summary }));
  return turns;
}

/** The OpenAI Responses bodies the scripted server received from one actor, in order. */
export function wireRequests(
  server: ScriptedModelServer,
  actor: string,
): Array<{ instructions?: string; input: unknown[]; tools?: Array<{ name: string }> }> {
  return server.requests
    .filter((request) => request.actor === actor)
    .map(
      (request) =>
        request.body as {
          instructions?: string;
          input: unknown[];
          tools?: Array<{ name: string }>;
        },
    );
}

/**
 * The messages a `model.request` sent, rebuilt from the `message.appended` events of its
 * conversation journaled before it (`model.request` carries only their count).
 */
export function sentMessages(
  events: readonly MissionEvent[],
  request: Extract<MissionEvent, { type: 'model.request' }>,
): Message[] {
  const before = events.slice(0, events.indexOf(request));
  const messages = eventsOf(before, 'message.appended')
    .filter((event) => event.conversation === request.actor)
    .map((event) => event.message);
  return request.messageCount === 0 ? [] : messages.slice(-request.messageCount);
}

/** The system prompt in effect for a `model.request` (sent only when it changed). */
export function sentSystem(
  events: readonly MissionEvent[],
  request: Extract<MissionEvent, { type: 'model.request' }>,
): string | undefined {
  const before = events.slice(0, events.indexOf(request) + 1);
  return eventsOf(before, 'model.request')
    .filter((event) => event.actor === request.actor && event.system !== undefined)
    .at(-1)?.system;
}
