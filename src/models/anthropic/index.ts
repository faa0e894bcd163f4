/** The Anthropic Messages API adapter and its pure converters. */
export { createAnthropicClient } from './client.ts';
export { toAnthropicProviderError } from './errors.ts';
export {
  fromAnthropicReply,
  mapStopReason as mapAnthropicStopReason,
  normalizeUsage as normalizeAnthropicReplyUsage,
  replyFromMessage as anthropicReplyFromMessage,
  type AnthropicReply,
  type AnthropicReplyBlock,
} from './from-wire.ts';
export { AnthropicStreamAccumulator } from './stream-accumulator.ts';
export {
  THINKING_BUDGETS as ANTHROPIC_THINKING_BUDGETS,
  toAnthropicRequest,
  usesAdaptiveThinking,
} from './to-wire.ts';
export { toAnthropicMessages } from './to-wire-messages.ts';
