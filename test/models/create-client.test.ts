import { afterEach, describe, expect, it } from 'vitest';
import { createModelClient } from '../../src/models/create-client.ts';
import type { RetryNotice } from '../../src/models/retry.ts';
import type { ProviderName, ResolvedModel } from '../../src/models/model-types.ts';
import type { Protocol } from '../../src/testing/script.ts';
import { ScriptedModelServer } from '../../src/testing/server.ts';

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const apiNames: Record<ProviderName, string> = {
  openai: 'gpt-4o',
  ollama: 'llama3.2:3b',
  anthropic: 'claude-haiku-4-5-20251001',
  gemini: 'gemini-2.0-flash',
};
const protocols: Record<ProviderName, Protocol> = {
  openai: 'openai',
  ollama: 'openai',
  anthropic: 'anthropic',
  gemini: 'gemini',
};

function modelFor(provider: ProviderName, baseUrl: string): ResolvedModel {
  return {
    provider,
    config: provider,
    key: 'k',
    apiName: apiNames[provider],
    baseUrl,
    promptCaching: true,
    reasoningCapable: false,
    ...(provider === 'ollama' ? {} : { apiKey: 'test-key-0123456789' }),
  };
}

describe('createModelClient', () => {
  it.each(['openai', 'ollama', 'anthropic', 'gemini'] as const)(
    'sends %s requests in its wire protocol',
    async (provider) => {
      const protocol = protocols[provider];
      server = await ScriptedModelServer.start({
        turns: [{ protocol, text: `hello from ${protocol}` }],
      });
      const client = createModelClient(modelFor(provider, server.baseUrl(protocol)));
      const response = await client.generate({
        system: 'sys',
        messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
        tools: [],
      });
      expect(response.message.parts).toEqual([{ type: 'text', text: `hello from ${protocol}` }]);
      expect(server.requests.map((request) => [request.protocol, request.turn])).toEqual([
        [protocol, 0],
      ]);
      expect(client.model.provider).toBe(provider);
    },
  );

  it('wraps the adapter in the retry policy and reports each wait', async () => {
    server = await ScriptedModelServer.start({
      turns: [{ error: { status: 503, retryAfterMs: 10 } }, { text: 'ok' }],
    });
    const notices: RetryNotice[] = [];
    const client = createModelClient(modelFor('openai', server.baseUrl('openai')), {
      onRetry: (notice) => notices.push(notice),
      retry: { sleep: async () => {} },
    });
    const response = await client.generate({
      system: '',
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
      tools: [],
    });
    expect(response.message.parts).toEqual([{ type: 'text', text: 'ok' }]);
    expect(notices).toEqual([
      { attempt: 1, waitMs: 10, reason: 'status', status: 503, message: '503 scripted error 503' },
    ]);
  });
});
