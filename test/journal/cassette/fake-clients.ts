/** A fake model client factory for cassette tests: answers `reply N to ACTOR`, counting calls. */
import type { ModelClientFactory } from '../../../src/models/create-client.ts';
import type {
  ModelRequest,
  ModelResponse,
  ResolvedModel,
} from '../../../src/models/model-types.ts';

export const model: ResolvedModel = {
  provider: 'openai',
  config: 'openai',
  key: 'gpt',
  apiName: 'gpt-4o',
  apiKey: 'sk-live-secret-key-123456',
  promptCaching: true,
  reasoningCapable: false,
  pricing: { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
};

/** A factory whose clients answer with the actor's name and a running count. */
export function fakeClients(): ModelClientFactory & { calls: ModelRequest[] } {
  const calls: ModelRequest[] = [];
  const factory = (resolved: ResolvedModel) => ({
    model: resolved,
    generate(request: ModelRequest): Promise<ModelResponse> {
      calls.push(request);
      return Promise.resolve({
        message: {
          role: 'assistant',
          parts: [{ type: 'text', text: `reply ${calls.length} to ${request.actor ?? '?'}` }],
        },
        stopReason: 'end',
        usage: { input: 100 * calls.length, output: 10, cacheRead: 0, cacheWrite: 0, reasoning: 0 },
        model: resolved.apiName,
        warnings: [],
      });
    },
  });
  return Object.assign(factory, { calls });
}

/** A request of `actor` whose user message says `text`. */
export function requestOf(
  actor: string,
  text: string,
  extra: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    actor,
    system: 'You are the commander.\nFollow the plan.',
    messages: [{ role: 'user', parts: [{ type: 'text', text }] }],
    tools: [
      { name: 'submit_output', description: 'Submit the output', parameters: { type: 'object' } },
    ],
    ...extra,
  };
}

export const noHooks = { onRetry: () => undefined };
