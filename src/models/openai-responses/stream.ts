/**
 * Folds a Responses API event stream into the final response: text deltas go to `onDelta`,
 * the terminal event (`response.completed` or `response.incomplete`) carries the result,
 * with any streamed items it left out put back (see streamed-items.ts).
 */
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { ProviderError } from '../../base/errors.ts';
import { TruncatedStreamError } from '../provider-errors.ts';
import { redactKey } from '../redact-key.ts';
import { StreamedItems } from './streamed-items.ts';

/** Error codes of a `response.failed` / `error` event that are worth another attempt. */
export const RETRYABLE_EVENT_CODES: ReadonlySet<string> = new Set([
  'server_error',
  'rate_limit_exceeded',
  'server_is_overloaded',
]);

export interface StreamContext {
  provider: string;
  apiKey?: string;
  onDelta?: (text: string) => void;
  /** Called on every event (stream deadlines). */
  onEvent?: () => void;
}

function failure(
  code: string | null | undefined,
  message: string,
  context: StreamContext,
): ProviderError {
  const retryable = code !== null && code !== undefined && RETRYABLE_EVENT_CODES.has(code);
  return new ProviderError(
    redactKey(message, context.apiKey),
    context.provider,
    undefined,
    retryable,
  );
}

/** Handles one event; returns the final response when the event is the terminal one. */
function onEvent(
  event: ResponseStreamEvent,
  streamed: StreamedItems,
  context: StreamContext,
): Response | undefined {
  context.onEvent?.();
  streamed.observe(event);
  switch (event.type) {
    // A refusal is what the model says too: it streams like text.
    case 'response.output_text.delta':
    case 'response.refusal.delta':
      if (event.delta !== '') context.onDelta?.(event.delta);
      return undefined;
    case 'response.completed':
    case 'response.incomplete': {
      const output = event.response.output ?? [];
      const completed = streamed.complete(output);
      return completed === output ? event.response : { ...event.response, output: completed };
    }
    case 'response.failed': {
      const error = event.response.error;
      throw failure(error?.code, error?.message ?? 'the response failed', context);
    }
    case 'error':
      throw failure(event.code, event.message, context);
    default:
      return undefined;
  }
}

/**
 * Reads the stream to its end and returns the terminal event's response; throws a retryable
 * error when the stream ends before it. The stream is read past the terminal event rather
 * than left: leaving the iteration early makes the SDK abort the request, an AbortError on
 * every ordinary reply.
 */
export async function collectResponse(
  events: AsyncIterable<ResponseStreamEvent>,
  context: StreamContext,
): Promise<Response> {
  const streamed = new StreamedItems();
  let final: Response | undefined;
  try {
    for await (const event of events) {
      if (final === undefined) final = onEvent(event, streamed, context);
    }
  } catch (error) {
    // A connection that breaks after the terminal event has lost nothing.
    if (final !== undefined) return final;
    throw error;
  }
  if (final === undefined) throw new TruncatedStreamError(context.provider);
  return final;
}
