/**
 * Anthropic replies → sortie responses (pure). A streamed reply is first reduced to one
 * `AnthropicReply` shape, which keeps tool input as the raw JSON text the model
 * sent so malformed arguments survive to become an error tool result.
 */
import type {
  MessageDeltaUsage,
  RefusalStopDetails,
  Usage as WireUsage,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelResponse, Part, StopReason, Usage } from '../model-types.ts';
import { normalizeAnthropicUsage, type ThinkingShown } from '../usage.ts';

/** One content block of a reply, reduced to what sortie keeps. */
export type AnthropicReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; inputJson: string }
  | { type: 'unknown'; wireType: string };

/** The token counts of a reply as the wire reports them (nulls where the API sends null). */
export type AnthropicUsageFields = Partial<
  Pick<
    WireUsage | MessageDeltaUsage,
    | 'input_tokens'
    | 'output_tokens'
    | 'cache_read_input_tokens'
    | 'cache_creation_input_tokens'
    | 'output_tokens_details'
  >
>;

/** A complete reply, however it arrived. */
export interface AnthropicReply {
  model: string;
  blocks: AnthropicReplyBlock[];
  stopReason: string | null;
  /** Sent with `stop_reason: "refusal"`: the policy category and an explanation. */
  stopDetails?: Partial<RefusalStopDetails> | null;
  usage: AnthropicUsageFields;
}

/**
 * `end_turn`→end, `tool_use`→tool_use, `max_tokens`→max_tokens, `refusal`→refusal,
 * anything else → other.
 */
export function mapStopReason(stopReason: string | null): StopReason {
  if (stopReason === 'end_turn') return 'end';
  if (stopReason === 'tool_use') return 'tool_use';
  if (stopReason === 'max_tokens') return 'max_tokens';
  if (stopReason === 'refusal') return 'refusal';
  return 'other';
}

/** What a reply thought and answered, for the thinking estimate; undefined when it did not think. */
function thinkingShown(blocks: AnthropicReplyBlock[]): ThinkingShown | undefined {
  let thought = false;
  const shown: ThinkingShown = { thinkingChars: 0, answerChars: 0 };
  for (const block of blocks) {
    if (block.type === 'thinking') shown.thinkingChars += block.thinking.length;
    if (block.type === 'thinking' || block.type === 'redacted_thinking') thought = true;
    if (block.type === 'text') shown.answerChars += block.text.length;
    if (block.type === 'tool_use') shown.answerChars += block.name.length + block.inputJson.length;
  }
  return thought ? shown : undefined;
}

/**
 * Usage in sortie's four classes (models.md): Anthropic already reports them disjoint.
 * `reasoning` is the thinking share of `output` when the API itemises it, else an estimate
 * for a reply that thought (marked `reasoningEstimated`), else 0.
 */
export function normalizeUsage(reply: Pick<AnthropicReply, 'usage' | 'blocks'>): Usage {
  return normalizeAnthropicUsage(reply.usage, thinkingShown(reply.blocks));
}

/** The refusal's explanation (or category) as the provider worded it. */
function refusalDetail(details: AnthropicReply['stopDetails']): string | undefined {
  const explanation = details?.explanation;
  if (typeof explanation === 'string' && explanation !== '') {
    return details?.category ? `${explanation} (${details.category})` : explanation;
  }
  return details?.category ?? undefined;
}

function blockToPart(block: AnthropicReplyBlock, warnings: string[]): Part | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'thinking':
      return {
        type: 'reasoning',
        provider: 'anthropic',
        text: block.thinking,
        state: { signature: block.signature },
      };
    case 'redacted_thinking':
      return {
        type: 'reasoning',
        provider: 'anthropic',
        text: '',
        state: { redacted_data: block.data },
      };
    case 'tool_use':
      return { type: 'tool_call', id: block.id, name: block.name, arguments: block.inputJson };
    case 'unknown':
      warnings.push(`ignored an Anthropic content block of unknown type "${block.wireType}"`);
      return undefined;
  }
}

/** The sortie response for a complete reply. */
export function fromAnthropicReply(reply: AnthropicReply): ModelResponse {
  const warnings: string[] = [];
  const parts = reply.blocks
    .map((block) => blockToPart(block, warnings))
    .filter((part) => part !== undefined);
  const stopReason = mapStopReason(reply.stopReason);
  const response: ModelResponse = {
    message: { role: 'assistant', parts },
    stopReason,
    usage: normalizeUsage(reply),
    model: reply.model,
    warnings,
  };
  const detail = stopReason === 'refusal' ? refusalDetail(reply.stopDetails) : undefined;
  if (detail !== undefined) response.stopDetail = detail;
  return response;
}
