/** Shared setup for the OpenAI adapter tests: a scripted server and a client pointed at it. */
import { createOpenAIResponsesClient } from '../../../src/models/openai-responses/client.ts';
import { withRetry, type RetryNotice } from '../../../src/models/retry.ts';
import type { ModelTimeouts } from '../../../src/models/timeouts.ts';
import type { ModelClient, ModelRequest, ResolvedModel } from '../../../src/models/types.ts';
import { ScriptedModelServer } from '../../../src/testing/server.ts';
import type { ScriptTurn } from '../../../src/testing/script.ts';

export const API_KEY = 'sk-proj-SECRETabcdefghijklmnop9876';

export interface Harness {
  server: ScriptedModelServer;
  client: ModelClient;
  notices: RetryNotice[];
  waits: number[];
}

export interface HarnessOptions {
  model?: Partial<ResolvedModel>;
  timeouts?: Partial<ModelTimeouts>;
}

/** A server with `turns` and a retrying client whose waits are recorded, not slept. */
export async function startHarness(
  turns: ScriptTurn[],
  options: HarnessOptions = {},
): Promise<Harness> {
  const server = await ScriptedModelServer.start({ turns });
  const model: ResolvedModel = {
    provider: 'openai',
    config: 'openai',
    key: 'gpt_5',
    apiName: 'gpt-5',
    baseUrl: server.baseUrl('openai'),
    apiKey: API_KEY,
    promptCaching: true,
    reasoningCapable: true,
    ...options.model,
  };
  const notices: RetryNotice[] = [];
  const waits: number[] = [];
  const adapter = createOpenAIResponsesClient(model, { timeouts: options.timeouts });
  const client = withRetry(adapter, {
    random: () => 0.5,
    sleep: async (milliseconds) => void waits.push(milliseconds),
    onRetry: (notice) => notices.push(notice),
  });
  return { server, client, notices, waits };
}

/** A request with one user text message. */
export function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return {
    system: 'You are terse.',
    messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
    tools: [],
    ...extra,
  };
}

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
