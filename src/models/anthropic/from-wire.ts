/**
 * Anthropic replies → sortie responses (pure). Streamed and non-streamed replies are first
 * reduced to one `AnthropicReply` shape, which keeps tool input as the raw JSON text the model
 * sent so malformed arguments survive to become an error tool result.
 */
import type {
  Message as WireMessage,
  MessageDeltaUsage,
  Usage as WireUsage,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelResponse, Part, StopReason, Usage } from '../types.ts';

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
  usage: AnthropicUsageFields;
}

/** `end_turn`→end, `tool_use`→tool_use, `max_tokens`→max_tokens, anything else → other. */
export function mapStopReason(stopReason: string | null): StopReason {
  if (stopReason === 'end_turn') return 'end';
  if (stopReason === 'tool_use') return 'tool_use';
  if (stopReason === 'max_tokens') return 'max_tokens';
  return 'other';
}

/**
 * Usage in sortie's four classes (models.md): Anthropic already reports them disjoint.
 * `reasoning` is the thinking share of `output` when the API itemises it, else 0.
 */
export function normalizeUsage(usage: AnthropicUsageFields): Usage {
  return {
    input: usage.input_tokens ?? 0,
    output: usage.output_tokens ?? 0,
    cacheRead: usage.cache_read_input_tokens ?? 0,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
    reasoning: usage.output_tokens_details?.thinking_tokens ?? 0,
  };
}

/** A non-streamed `Message` as an AnthropicReply. */
export function replyFromMessage(message: WireMessage): AnthropicReply {
  const blocks = message.content.map((block): AnthropicReplyBlock => {
    switch (block.type) {
      case 'text':
        return { type: 'text', text: block.text };
      case 'thinking':
        return { type: 'thinking', thinking: block.thinking, signature: block.signature };
      case 'redacted_thinking':
        return { type: 'redacted_thinking', data: block.data };
      case 'tool_use':
        return {
          type: 'tool_use',
          id: block.id,
          name: block.name,
          inputJson: JSON.stringify(block.input ?? {}),
        };
      default:
        return { type: 'unknown', wireType: block.type };
    }
  });
  return { model: message.model, blocks, stopReason: message.stop_reason, usage: message.usage };
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
  return {
    message: { role: 'assistant', parts },
    stopReason: mapStopReason(reply.stopReason),
    usage: normalizeUsage(reply.usage),
    model: reply.model,
    warnings,
  };
}
