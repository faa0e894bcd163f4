/** Pure conversion of an OpenAI Responses API `response` object into a sortie ModelResponse. */
import type {
  Response,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import type {
  ModelResponse,
  Part,
  ProviderName,
  ReasoningPart,
  StopReason,
  TextPart,
} from '../model-types.ts';
import { normalizeOpenAIUsage } from '../usage.ts';

/** The readable text of a reasoning item: its summary, else its raw reasoning content. */
function reasoningText(item: ResponseReasoningItem): string {
  const summary = item.summary.map((entry) => entry.text);
  if (summary.length > 0) return summary.join('\n\n');
  return (item.content ?? []).map((entry) => entry.text).join('\n\n');
}

/** Everything needed to send the item back exactly as received. */
function toReasoningPart(item: ResponseReasoningItem, provider: ProviderName): ReasoningPart {
  const state: Record<string, unknown> = { id: item.id, summary: item.summary ?? [] };
  if (typeof item.encrypted_content === 'string') state.encrypted_content = item.encrypted_content;
  if (item.content !== undefined && item.content.length > 0) state.content = item.content;
  return { type: 'reasoning', provider, text: reasoningText(item), state };
}

/**
 * A message's content as text parts; the item's `phase` (commentary / final answer) rides on
 * each part so it goes back with the next request, as the API asks. A refusal's text is
 * kept as text too (the stop reason says it was a refusal).
 */
function messageParts(item: ResponseOutputMessage): TextPart[] {
  const phase = item.phase ?? undefined;
  return item.content.map((content) => {
    const part: TextPart = {
      type: 'text',
      text: content.type === 'output_text' ? content.text : content.refusal,
    };
    if (phase !== undefined) part.state = { phase };
    return part;
  });
}

function itemParts(item: ResponseOutputItem, provider: ProviderName, warnings: string[]): Part[] {
  switch (item.type) {
    case 'message':
      return messageParts(item);
    case 'function_call':
      return [{ type: 'tool_call', id: item.call_id, name: item.name, arguments: item.arguments }];
    case 'reasoning':
      return [toReasoningPart(item, provider)];
    default:
      warnings.push(
        `ignored an output item of unknown type "${String((item as { type?: unknown }).type)}"`,
      );
      return [];
  }
}

/** The refusal texts of a response's messages, joined; undefined when the model did not refuse. */
function refusalText(output: ResponseOutputItem[]): string | undefined {
  const refusals = output.flatMap((item) =>
    item.type === 'message'
      ? item.content.flatMap((content) => (content.type === 'refusal' ? [content.refusal] : []))
      : [],
  );
  return refusals.length > 0 ? refusals.join('\n') : undefined;
}

/** The stop reason, and what the provider said about a declined reply. */
export function stopOf(
  response: Pick<Response, 'status' | 'incomplete_details' | 'output'>,
  parts: Part[],
): { stopReason: StopReason; stopDetail?: string } {
  if (response.status === 'incomplete') {
    const reason = response.incomplete_details?.reason;
    if (reason === 'max_output_tokens') return { stopReason: 'max_tokens' };
    if (reason === 'content_filter') return { stopReason: 'safety', stopDetail: reason };
    return { stopReason: 'other' };
  }
  const refusal = refusalText(response.output ?? []);
  if (refusal !== undefined) return { stopReason: 'refusal', stopDetail: refusal };
  if (parts.some((part) => part.type === 'tool_call')) return { stopReason: 'tool_use' };
  const ended = response.status === 'completed' || response.status === undefined;
  return { stopReason: ended ? 'end' : 'other' };
}

/** A finished response as sortie's ModelResponse (unknown item types become warnings). */
export function fromResponse(
  response: Response,
  provider: ProviderName,
  requestedModel: string,
): ModelResponse {
  const warnings: string[] = [];
  const parts = (response.output ?? []).flatMap((item) => itemParts(item, provider, warnings));
  return {
    message: { role: 'assistant', parts },
    ...stopOf(response, parts),
    usage: normalizeOpenAIUsage(response.usage),
    model:
      typeof response.model === 'string' && response.model !== '' ? response.model : requestedModel,
    warnings,
  };
}
