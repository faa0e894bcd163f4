/**
 * One client per wire protocol, pointed at a scripted model server: what the contract suite
 * and the recorded-stream tests run against. Retries wait nothing and are recorded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAdapter } from '../../src/models/create-client.ts';
import { withRetry, type RetryNotice } from '../../src/models/retry.ts';
import type { ModelTimeouts } from '../../src/models/timeouts.ts';
import type {
  ModelClient,
  ModelRequest,
  ResolvedModel,
  ToolDefinition,
} from '../../src/models/types.ts';
import { splitSseFrames } from '../../src/testing/respond.ts';
import type { Protocol, ScriptTurn } from '../../src/testing/script.ts';
import { ScriptedModelServer } from '../../src/testing/server.ts';

/** A provider as the contract suite sees it: its wire protocol and a model to call. */
export interface ProtocolCase {
  name: string;
  protocol: Protocol;
  /** Without `baseUrl`: the harness points it at the server. */
  model: ResolvedModel;
}

export const OPENAI: ProtocolCase = {
  name: 'OpenAI',
  protocol: 'openai',
  model: {
    provider: 'openai',
    config: 'openai',
    key: 'gpt_5',
    apiName: 'gpt-5',
    apiKey: 'sk-proj-SECRETabcdefghijklmnop9876',
    promptCaching: true,
    reasoningCapable: true,
  },
};

export const ANTHROPIC: ProtocolCase = {
  name: 'Anthropic',
  protocol: 'anthropic',
  model: {
    provider: 'anthropic',
    config: 'claude',
    key: 'claude_sonnet_4_5',
    apiName: 'claude-sonnet-4-5-20250929',
    apiKey: 'sk-ant-api03-test-key-0123456789',
    promptCaching: true,
    reasoningCapable: true,
  },
};

export const GEMINI: ProtocolCase = {
  name: 'Gemini',
  protocol: 'gemini',
  model: {
    provider: 'gemini',
    config: 'google',
    key: 'gemini_2_5_flash',
    apiName: 'gemini-2.5-flash',
    apiKey: 'AIzaSyTestKey0123456789abcdefghijklmno',
    promptCaching: true,
    reasoningCapable: true,
  },
};

/** The local provider: OpenAI's protocol, no key of its own. */
export const OLLAMA: ProtocolCase = {
  name: 'Ollama',
  protocol: 'openai',
  model: {
    provider: 'ollama',
    config: 'local',
    key: 'small',
    apiName: 'qwen3:8b',
    promptCaching: true,
    reasoningCapable: false,
  },
};

export const PROTOCOL_CASES: readonly ProtocolCase[] = [OPENAI, ANTHROPIC, GEMINI, OLLAMA];

export interface Harness {
  server: ScriptedModelServer;
  /** The adapter with sortie's retry policy around it. */
  client: ModelClient;
  /** The adapter alone: faults surface as its errors. */
  adapter: ModelClient;
  notices: RetryNotice[];
  waits: number[];
}

export interface HarnessOptions {
  model?: Partial<ResolvedModel>;
  timeouts?: Partial<ModelTimeouts>;
}

let running: ScriptedModelServer[] = [];

/** A server answering `turns` and a client for `protocolCase`; `closeHarnesses` stops it. */
export async function startHarness(
  protocolCase: ProtocolCase,
  turns: ScriptTurn[],
  options: HarnessOptions = {},
): Promise<Harness> {
  const server = await ScriptedModelServer.start({ turns });
  running.push(server);
  const model: ResolvedModel = {
    ...protocolCase.model,
    baseUrl: server.baseUrl(protocolCase.protocol),
    ...options.model,
  };
  const adapter = createAdapter(model, { timeouts: options.timeouts });
  const notices: RetryNotice[] = [];
  const waits: number[] = [];
  const client = withRetry(adapter, {
    random: () => 0.5,
    sleep: async (milliseconds) => void waits.push(milliseconds),
    onRetry: (notice) => notices.push(notice),
  });
  return { server, client, adapter, notices, waits };
}

/** Stops every server started since the last call (use in `afterEach`). */
export async function closeHarnesses(): Promise<void> {
  const servers = running;
  running = [];
  await Promise.all(servers.map((server) => server.close()));
}

export const WEATHER_TOOL: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
  },
};

/** A request with one user text message and the weather tool. */
export function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are terse.',
    messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
    tools: [WEATHER_TOOL],
    ...extra,
  };
}

const FIXTURES = fileURLToPath(new URL('../fixtures/wire/', import.meta.url));

/** The frames of a recorded stream in test/fixtures/wire/FOLDER/NAME, for a turn's `frames`. */
export function recordedFrames(folder: string, name: string): string[] {
  return splitSseFrames(readFileSync(`${FIXTURES}${folder}/${name}`, 'utf8'));
}
