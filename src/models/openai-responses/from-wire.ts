/** Pure conversion of an OpenAI Responses API `response` object into a sortie ModelResponse. */
import type {
  Response,
  ResponseOutputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import type { ModelResponse, Part, ProviderName, ReasoningPart, StopReason } from '../types.ts';
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

function itemParts(item: ResponseOutputItem, provider: ProviderName, warnings: string[]): Part[] {
  switch (item.type) {
    case 'message':
      return item.content.map((content) =>
        content.type === 'output_text'
          ? { type: 'text', text: content.text }
          : { type: 'text', text: content.refusal },
      );
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

/** The stop reason from the response status and the parts produced. */
export function stopReasonOf(
  response: Pick<Response, 'status' | 'incomplete_details'>,
  parts: Part[],
): StopReason {
  if (response.status === 'incomplete') {
    return response.incomplete_details?.reason === 'max_output_tokens' ? 'max_tokens' : 'other';
  }
  if (parts.some((part) => part.type === 'tool_call')) return 'tool_use';
  return response.status === 'completed' || response.status === undefined ? 'end' : 'other';
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
    stopReason: stopReasonOf(response, parts),
    usage: normalizeOpenAIUsage(response.usage),
    model:
      typeof response.model === 'string' && response.model !== '' ? response.model : requestedModel,
    warnings,
  };
}
