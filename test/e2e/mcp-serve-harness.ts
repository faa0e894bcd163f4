/**
 * sortie's MCP server as clients meet it: the SDK's client connected to the built CLI's
 * `sortie mcp serve` over stdio, or to `sortie serve`'s mcp_host over Streamable HTTP,
 * answering elicitations with a test's replies and keeping every elicitation and progress
 * notification it receives. The project and the scripted model are `sortie serve`'s
 * (serve-harness.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ElicitRequestSchema,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { builtBin, builtCli } from './built-cli.ts';
import { CLI_ENV, ROOT } from './cli-child.ts';
import { outputsOf } from './cli-human-harness.ts';
import { startServe, type Served } from './serve-harness.ts';

/** The tools the serve project's MCP server lists, its host tools first. */
export const PROJECT_TOOLS = [
  'list_version',
  'list_missions',
  'get_mission_config',
  'run_mission',
  'list_runs',
  'get_run_details',
  'mission_greet',
  'mission_ask',
];

const HOST_FIXTURE = join(import.meta.dirname, '../fixtures/config/mcp-host');

/** A connected client and what it received. */
export interface TestClient {
  client: Client;
  /** Every elicitation request's params, in order. */
  elicited: Array<ElicitRequest['params']>;
  /** Errors the client's transport met (a line on stdout that is not the protocol is one). */
  errors: Error[];
  /** What the server printed on stderr so far (stdio only). */
  stderr: () => string;
}

/** How a client answers the server's elicitations; undefined: it does not support them. */
export type Elicitor = ((params: ElicitRequest['params']) => ElicitResult) | undefined;

/** The SDK client, declaring elicitation when `elicitor` is given, connected over `transport`. */
export async function connectClient(transport: Transport, elicitor: Elicitor): Promise<TestClient> {
  const client = new Client(
    { name: 'sortie-test', version: '1.0.0' },
    { capabilities: elicitor === undefined ? {} : { elicitation: { form: {} } } },
  );
  const elicited: Array<ElicitRequest['params']> = [];
  if (elicitor !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      elicited.push(request.params);
      return elicitor(request.params);
    });
  }
  const errors: Error[] = [];
  client.onerror = (error) => errors.push(error);
  await client.connect(transport);
  return { client, elicited, errors, stderr: () => '' };
}

/** The arguments of `sortie mcp serve` for the serve project with its model's variables. */
export function serveArgs(project: string, stateDir: string, model: ScriptedModelServer): string[] {
  return [
    project,
    '--state-dir',
    stateDir,
    '--var',
    'api_key=sk-test-serve',
    '--var',
    `base_url=${model.baseUrl('openai')}`,
  ];
}

/** The built CLI's `sortie mcp serve` over stdio, connected. */
export async function connectStdio(
  project: string,
  stateDir: string,
  model: ScriptedModelServer,
  elicitor: Elicitor,
): Promise<TestClient> {
  const pkg = await builtCli();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...builtBin(pkg), 'mcp', 'serve', ...serveArgs(project, stateDir, model)],
    cwd: ROOT,
    env: Object.fromEntries(
      Object.entries({ ...process.env, ...CLI_ENV }).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    ),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const connected = await connectClient(transport, elicitor);
  return { ...connected, stderr: () => stderr };
}

/**
 * The SDK client over Streamable HTTP to `url` (a `sortie serve` mcp_host endpoint), sending
 * `secret` as a bearer token when given.
 */
export function connectHttp(
  url: string,
  secret: string | undefined,
  elicitor: Elicitor,
): Promise<TestClient> {
  const headers: Record<string, string> =
    secret === undefined ? {} : { authorization: `Bearer ${secret}` };
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  return connectClient(transport, elicitor);
}

/** The JSON of a tool result's first text block. */
export function resultJson(result: unknown): Record<string, unknown> {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return JSON.parse(content.find((block) => block.type === 'text')?.text ?? 'null') as Record<
    string,
    unknown
  >;
}

/** `sortie serve` of the serve project with its mcp_host on, guarded by `secret`, and its URL. */
export async function startMcpHost(
  project: string,
  stateDir: string,
  model: ScriptedModelServer,
  secret: string,
): Promise<{ served: Served; endpoint: string }> {
  for (const file of ['variables.hcl', 'mcp_host.hcl']) {
    await copyFile(join(HOST_FIXTURE, file), join(project, file));
  }
  const served = await startServe(project, stateDir, model, [
    '--mcp-port',
    '0',
    '--var',
    `mcp_host_secret=${secret}`,
  ]);
  const line = await served.line(/^mcp host listening on /);
  return { served, endpoint: /listening on (\S+)/.exec(line)?.[1] ?? '' };
}

/**
 * Runs `mission_ask` and checks both ends of its question: the client was asked it as a form,
 * and the asking agent got the client's `answer` as its tool result.
 */
export async function expectQuestionElicited(
  connected: TestClient,
  model: ScriptedModelServer,
  answer: string,
): Promise<void> {
  const result = await connected.client.callTool({ name: 'mission_ask', arguments: {} });
  expect(resultJson(result)).toMatchObject({ mission: 'ask', status: 'succeeded' });
  expect(connected.elicited).toEqual([
    {
      mode: 'form',
      message: 'agent:decide/asker asks: Deploy to which region?',
      requestedSchema: {
        type: 'object',
        properties: { answer: { type: 'string', title: 'Answer', enum: ['eu', 'us'] } },
        required: ['answer'],
      },
    },
  ]);
  const asker = model.requests.filter((request) => request.actor === 'agent:decide/asker');
  expect(outputsOf(asker.at(-1)?.body)).toEqual([answer]);
}
