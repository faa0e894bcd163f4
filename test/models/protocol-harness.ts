/**
 * One client per wire protocol, pointed at a scripted model server: what the contract suite
 * and the recorded-stream tests run against. Retries wait nothing and are recorded.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createAdapter } from '../../src/models/create-client.ts';
import { withRetry, type RetryNotice } from '../../src/models/retry.ts';
import type { ModelTimeouts } from '../../src/models/timeouts.ts';
import type { FailureReason } from '../../src/models/provider-errors.ts';
import type {
  Message,
  ModelClient,
  ModelRequest,
  ResolvedModel,
  StopReason,
} from '../../src/models/model-types.ts';
import { splitSseFrames } from '../../src/testing/respond.ts';
import type { Protocol, ScriptTurn } from '../../src/testing/script.ts';
import { ScriptedModelServer } from '../../src/testing/server.ts';
import { SONNET, WEATHER_TOOL } from './anthropic/conversation.ts';
import { FLASH } from './gemini/conversation.ts';

/**
 * A provider as the contract suite sees it: its wire protocol, a model to call, and the few
 * facts in which protocols legitimately differ.
 */
export interface ProtocolCase {
  name: string;
  protocol: Protocol;
  /** Without `baseUrl`: the harness points it at the server. */
  model: ResolvedModel;
  /** Which usage classes the protocol reports beyond input, output and cache reads. */
  reports: { cacheWrite: boolean; reasoning: boolean };
  /** What a scripted refusal becomes (Gemini has no refusal; its form is a safety stop). */
  refusal: StopReason;
  /** The provider's message in a ProviderError for an HTTP error status. */
  statusMessage: (status: number, message: string) => string;
  /** A stream that starts, then carries the provider's "overloaded" error event. */
  overloadFrames: string[];
  /** The retry notice such a stream gets (Gemini's error event carries an HTTP status). */
  overloadNotice: { reason: FailureReason; status?: number; message: string };
}

const sse = (event: { type: string } & Record<string, unknown>): string =>
  `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

const openaiOverload = [
  sse({ type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } }),
  sse({
    type: 'error',
    code: 'server_is_overloaded',
    message: 'The server is overloaded.',
    param: null,
  }),
];

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
  reports: { cacheWrite: false, reasoning: true },
  refusal: 'refusal',
  // The openai SDK puts the status in front of the provider's message.
  statusMessage: (status, message) => `${status} ${message}`,
  overloadFrames: openaiOverload,
  overloadNotice: { reason: 'other', message: 'The server is overloaded.' },
};

export const ANTHROPIC: ProtocolCase = {
  name: 'Anthropic',
  protocol: 'anthropic',
  model: SONNET,
  reports: { cacheWrite: true, reasoning: false },
  refusal: 'refusal',
  statusMessage: (_status, message) => message,
  overloadFrames: [
    sse({
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      },
    }),
    sse({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
  ],
  overloadNotice: { reason: 'other', message: 'Overloaded' },
};

export const GEMINI: ProtocolCase = {
  name: 'Gemini',
  protocol: 'gemini',
  model: FLASH,
  reports: { cacheWrite: false, reasoning: true },
  refusal: 'safety',
  statusMessage: (_status, message) => message,
  overloadFrames: [
    'data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}\r\n\r\n',
    'data: {"error":{"code":503,"message":"The model is overloaded.","status":"UNAVAILABLE"}}\r\n\r\n',
  ],
  overloadNotice: { reason: 'status', status: 503, message: 'The model is overloaded.' },
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
  reports: { cacheWrite: false, reasoning: true },
  refusal: 'refusal',
  statusMessage: (status, message) => `${status} ${message}`,
  overloadFrames: openaiOverload,
  overloadNotice: { reason: 'other', message: 'The server is overloaded.' },
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

export { WEATHER_TOOL };

/** A request with one user text message and the weather tool. */
export function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are terse.',
    messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
    tools: [WEATHER_TOOL],
    ...extra,
  };
}

/**
 * The results of an assistant message's tool calls, one per call in order, as the runtime
 * sends them back; the calls at the positions in `failed` get error results.
 */
export function toolResults(message: Message, outputs: string[], failed: number[] = []): Message {
  const calls = message.parts.filter((part) => part.type === 'tool_call');
  return {
    role: 'user',
    parts: calls.map((call, index) => ({
      type: 'tool_result' as const,
      callId: call.id,
      name: call.name,
      content: outputs[index]!,
      isError: failed.includes(index),
    })),
  };
}

const FIXTURES = fileURLToPath(new URL('../fixtures/wire/', import.meta.url));

/** The frames of a recorded stream in test/fixtures/wire/FOLDER/NAME, for a turn's `frames`. */
export function recordedFrames(folder: string, name: string): string[] {
  return splitSseFrames(readFileSync(`${FIXTURES}${folder}/${name}`, 'utf8'));
}
