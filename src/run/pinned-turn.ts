/**
 * A fork at a model response keeps that reply (as it was, or edited): the actor that got it
 * sends its request again when the fork resumes, and this client answers it with the kept
 * reply instead of asking the model, once. Every other request goes to the run's clients.
 */
import type { PinnedResponse } from '../base/events.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type { ModelRequest, ModelResponse } from '../models/model-types.ts';
import { defaultModelClients } from './run-services.ts';

/** `clients` with the pinned reply answering its actor's next request; as is without one. */
export function withPinnedResponse(
  clients: ModelClientFactory | undefined,
  pinned: PinnedResponse | null | undefined,
): ModelClientFactory | undefined {
  if (pinned === null || pinned === undefined) return clients;
  const inner = clients ?? defaultModelClients;
  let pending = true;
  return (model, hooks) => {
    const client = inner(model, hooks);
    return {
      model,
      async generate(request: ModelRequest): Promise<ModelResponse> {
        if (!pending || request.actor !== pinned.actor) return client.generate(request);
        pending = false;
        // Answer after one turn of the event loop, as a network reply would.
        await new Promise((resolve) => setImmediate(resolve));
        request.signal?.throwIfAborted();
        for (const part of pinned.message.parts) {
          if (part.type === 'text') request.onDelta?.(part.text);
        }
        return {
          message: pinned.message,
          stopReason: pinned.stopReason,
          usage: pinned.usage,
          model: model.apiName,
          warnings: [],
        };
      },
    };
  };
}
