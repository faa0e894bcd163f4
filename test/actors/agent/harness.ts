/**
 * Agent session tests run the real stack: an HCL project loaded from a temp folder, run
 * services, the real OpenAI SDK against the scripted model server, and a loopback HTTP
 * server for the agent's tools.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { createAgentSession } from '../../../src/actors/agent/index.ts';
import type { RestoredConversation, RunServices } from '../../../src/actors/contracts.ts';
import { findAgent } from '../../../src/config/mission-lookup.ts';
import type { ModelClientFactory } from '../../../src/models/create-client.ts';
import { createRunServices } from '../../../src/run/run-services.ts';
import { createRunRedactor, eventRedactor } from '../../../src/run/run-redactor.ts';
import { loadProject } from '../../../src/config/load-project.ts';
import { createModelClient } from '../../../src/models/create-client.ts';
import { EventBus } from '../../../src/runtime/event-bus.ts';
import type { MissionEvent } from '../../../src/base/events.ts';
import type { StepGate } from '../../../src/runtime/gate.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
import { temporaryDirectory } from '../../helpers/temp-dir.ts';

/** The model block every test project uses: the scripted server through the real OpenAI SDK. */
export const MODEL_BLOCK = `variable "base_url" {
  default = "http://127.0.0.1:1/v1"
}

model "openai" {
  provider = "openai"
  api_key  = "sk-test-key-0123456789"
  base_url = vars.base_url
}
`;

/** Real clients whose retry waits take no time. */
export const instantClients: ModelClientFactory = (model, hooks) =>
  createModelClient(model, {
    onRetry: hooks.onRetry,
    retry: { sleep: () => Promise.resolve(), random: () => 0 },
  });

/** A loopback server for tool calls: `/weather`, `/cities` (25 items), `/echo` (request headers). */
export async function startToolServer(): Promise<{
  url: string;
  seen: string[];
  close(): Promise<void>;
}> {
  const seen: string[] = [];
  const server: Server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? '-'}`);
    response.setHeader('content-type', 'application/json');
    if (request.url === '/weather') {
      response.end(JSON.stringify({ city: 'Paris', celsius: 21 }));
    } else if (request.url === '/cities') {
      response.end(JSON.stringify(Array.from({ length: 25 }, (_, index) => ({ id: index }))));
    } else {
      response.end(JSON.stringify({ authorization: request.headers.authorization ?? null }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Harness {
  server: ScriptedModelServer;
  services: RunServices;
  events: MissionEvent[];
  dir: string;
  close(): Promise<void>;
}

/** Loads `hcl` (after the model block), starts the scripted server and builds mission `m`'s services. */
export async function startHarness(options: {
  hcl: string;
  turns: ScriptTurn[];
  inputs?: Record<string, unknown>;
  gate?: StepGate;
  vars?: Record<string, string>;
  /** More project files by path relative to the project root (folders are made). */
  files?: Record<string, string>;
}): Promise<Harness> {
  const server = await ScriptedModelServer.start({ turns: options.turns });
  const dir = await temporaryDirectory('agent');
  await writeFile(join(dir, 'main.hcl'), MODEL_BLOCK + options.hcl);
  for (const [path, text] of Object.entries(options.files ?? {})) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  const config = await loadProject(dir, {
    vars: { base_url: server.baseUrl('openai'), ...options.vars },
    env: {},
  });
  const mission = config.missions.get('m');
  const inputs = options.inputs ?? {};
  const redact = createRunRedactor(config, mission === undefined ? [] : [{ mission, inputs }]);
  const bus = new EventBus({ runId: 'run-1', redact: eventRedactor(redact) });
  const events: MissionEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const services = await createRunServices({
    config,
    mission: 'm',
    inputs,
    stateDir: join(dir, '.sortie'),
    runId: 'run-1',
    bus,
    signal: new AbortController().signal,
    clients: instantClients,
    ...(options.gate === undefined ? {} : { gate: options.gate }),
  });
  return {
    server,
    services,
    events,
    dir,
    close: async () => {
      await server.close();
    },
  };
}

/** A Responses API request body's input as short lines: `user: text`, `call name args`, `output: ...`. */
export function wireTranscript(body: unknown): string[] {
  const input = (body as { input: Array<Record<string, unknown>> }).input;
  return input.map((item) => {
    if (item.type === 'function_call') return `call ${String(item.name)} ${String(item.arguments)}`;
    if (item.type === 'function_call_output') return `output: ${String(item.output)}`;
    const content = item.content;
    const text =
      typeof content === 'string'
        ? content
        : (content as Array<{ text?: string }>).map((part) => part.text ?? '').join('');
    return `${String(item.role)}: ${text}`;
  });
}

/** The tool names a Responses API request offered. */
export function wireTools(body: unknown): string[] {
  const tools = (body as { tools?: Array<{ name: string }> }).tools ?? [];
  return tools.map((tool) => tool.name);
}

/** The session of the project's `researcher` agent for task `t` (an item's, with `index`). */
export function researcherSession(
  services: RunServices,
  options: { index?: number; restored?: RestoredConversation } = {},
) {
  const agent = findAgent(services.config, services.mission, 'researcher');
  if (agent === undefined) throw new Error('test project has no researcher');
  return createAgentSession(services, { agent, task: 't', ...options });
}
