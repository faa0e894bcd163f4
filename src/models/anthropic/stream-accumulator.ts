/**
 * Folds Anthropic stream events into one AnthropicReply. Written by hand rather than using the
 * SDK's MessageStream because tool input must stay the exact JSON text the model streamed
 * (the SDK parses it, and malformed JSON must reach the runtime verbatim), and because a
 * stream that ends without `message_stop` has to be recognised as truncated.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicReply, AnthropicReplyBlock, AnthropicUsageFields } from './from-wire.ts';

type DraftBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; inputJson: string; initialInput: unknown }
  | { type: 'unknown'; wireType: string };

function startBlock(
  block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
): DraftBlock {
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
        inputJson: '',
        initialInput: block.input,
      };
    default:
      return { type: 'unknown', wireType: block.type };
  }
}

function finishBlock(block: DraftBlock): AnthropicReplyBlock {
  if (block.type !== 'tool_use') return block;
  // A tool call without input deltas carries its (empty) input in the start event.
  const inputJson =
    block.inputJson !== '' ? block.inputJson : JSON.stringify(block.initialInput ?? {});
  return { type: 'tool_use', id: block.id, name: block.name, inputJson };
}

/** Drop-in usage merge: later non-null counts replace earlier ones. */
function mergeUsage(
  current: AnthropicUsageFields,
  update: AnthropicUsageFields,
): AnthropicUsageFields {
  const merged: AnthropicUsageFields = { ...current };
  for (const [key, value] of Object.entries(update) as Array<
    [keyof AnthropicUsageFields, unknown]
  >) {
    if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/** Accumulates one streamed reply; `push` returns the text delta an event carried, if any. */
export class AnthropicStreamAccumulator {
  private model: string;
  private readonly blocks = new Map<number, DraftBlock>();
  private stopReason: string | null = null;
  private stopDetails: AnthropicReply['stopDetails'] = null;
  private usage: AnthropicUsageFields = {};
  private stopped = false;

  constructor(requestedModel: string) {
    this.model = requestedModel;
  }

  push(event: RawMessageStreamEvent): string | undefined {
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model || this.model;
        this.usage = mergeUsage(this.usage, event.message.usage);
        return undefined;
      case 'content_block_start':
        this.blocks.set(event.index, startBlock(event.content_block));
        return undefined;
      case 'content_block_delta':
        return this.applyDelta(event);
      case 'message_delta':
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        this.stopDetails = event.delta.stop_details ?? this.stopDetails;
        this.usage = mergeUsage(this.usage, event.usage);
        return undefined;
      case 'message_stop':
        this.stopped = true;
        return undefined;
      default:
        return undefined;
    }
  }

  private applyDelta(
    event: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>,
  ): string | undefined {
    const block = this.blocks.get(event.index);
    const delta = event.delta;
    if (block === undefined) return undefined;
    if (delta.type === 'text_delta' && block.type === 'text') {
      block.text += delta.text;
      return delta.text;
    }
    if (delta.type === 'input_json_delta' && block.type === 'tool_use')
      block.inputJson += delta.partial_json;
    else if (delta.type === 'thinking_delta' && block.type === 'thinking')
      block.thinking += delta.thinking;
    else if (delta.type === 'signature_delta' && block.type === 'thinking')
      block.signature += delta.signature;
    return undefined;
  }

  /** True once `message_stop` arrived; a stream that ends before that was truncated. */
  get complete(): boolean {
    return this.stopped;
  }

  reply(): AnthropicReply {
    const ordered = [...this.blocks.entries()].sort(([left], [right]) => left - right);
    return {
      model: this.model,
      blocks: ordered.map(([, block]) => finishBlock(block)),
      stopReason: this.stopReason,
      stopDetails: this.stopDetails,
      usage: this.usage,
    };
  }
}
