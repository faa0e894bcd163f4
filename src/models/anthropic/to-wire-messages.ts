/**
 * Our messages → Anthropic Messages API `messages` (pure). Consecutive messages of one role
 * become one wire message, so a run of tool results travels as one user message of
 * `tool_result` blocks, which is what the API expects after a turn of parallel tool calls.
 */
import type {
  Base64ImageSource,
  ContentBlockParam,
  DocumentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type {
  DocumentPart,
  ImagePart,
  Message,
  Part,
  TextPart,
  ToolResultPart,
} from '../model-types.ts';
import { perObject } from '../../base/per-object.ts';

type ImageMediaType = Base64ImageSource['media_type'];

/** An image part as an Anthropic base64 image block. */
export function imageBlock(part: ImagePart): ImageBlockParam {
  return {
    type: 'image',
    source: { type: 'base64', media_type: part.mediaType as ImageMediaType, data: part.data },
  };
}

/** A PDF part as an Anthropic base64 document block (titled by its file name when known). */
export function documentBlock(part: DocumentPart): DocumentBlockParam {
  const block: DocumentBlockParam = {
    type: 'document',
    source: { type: 'base64', media_type: 'application/pdf', data: part.data },
  };
  if (part.filename !== undefined) block.title = part.filename;
  return block;
}

function richContentBlock(
  part: TextPart | ImagePart | DocumentPart,
): TextBlockParam | ImageBlockParam | DocumentBlockParam {
  if (part.type === 'image') return imageBlock(part);
  if (part.type === 'document') return documentBlock(part);
  return { type: 'text', text: part.text };
}

function toolResultBlock(part: ToolResultPart): ToolResultBlockParam {
  const content =
    typeof part.content === 'string' ? part.content : part.content.map(richContentBlock);
  return { type: 'tool_result', tool_use_id: part.callId, content, is_error: part.isError };
}

/** Arguments are kept raw; the wire wants an object, so malformed JSON is sent as `{}`. */
function parseToolInput(argumentsText: string): unknown {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/**
 * Reasoning goes back exactly as received: a thinking block with its signature, or a redacted
 * block with its data. Reasoning without Anthropic state (another provider's, or unsigned)
 * cannot be verified by the API, so it is left out.
 */
function reasoningBlock(part: Extract<Part, { type: 'reasoning' }>): ContentBlockParam | undefined {
  if (part.provider !== 'anthropic' || part.state === undefined) return undefined;
  const redacted = part.state['redacted_data'];
  if (typeof redacted === 'string') return { type: 'redacted_thinking', data: redacted };
  const signature = part.state['signature'];
  if (typeof signature === 'string') return { type: 'thinking', thinking: part.text, signature };
  return undefined;
}

function partToBlock(part: Part): ContentBlockParam | undefined {
  switch (part.type) {
    case 'text':
      // The API rejects empty text blocks.
      return part.text === '' ? undefined : { type: 'text', text: part.text };
    case 'image':
      return imageBlock(part);
    case 'document':
      return documentBlock(part);
    case 'tool_call':
      return {
        type: 'tool_use',
        id: part.id,
        name: part.name,
        input: parseToolInput(part.arguments),
      };
    case 'tool_result':
      return toolResultBlock(part);
    case 'reasoning':
      return reasoningBlock(part);
  }
}

/** Tool results must lead a user message's content; the rest keeps its order. */
function orderUserBlocks(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const results = blocks.filter((block) => block.type === 'tool_result');
  if (results.length === 0 || results.length === blocks.length) return blocks;
  return [...results, ...blocks.filter((block) => block.type !== 'tool_result')];
}

/** One message's blocks, converted once per message object (never changed once sent). */
const messageBlocks = perObject((message: Message) =>
  message.parts.map(partToBlock).filter((block) => block !== undefined),
);

/**
 * Converts the conversation, merging consecutive same-role messages and dropping empty ones.
 * The blocks are shared with earlier requests (never change them); the arrays are new.
 */
export function toAnthropicMessages(messages: readonly Message[]): MessageParam[] {
  const wire: Array<{ role: 'user' | 'assistant'; content: ContentBlockParam[] }> = [];
  for (const message of messages) {
    const blocks = messageBlocks(message);
    if (blocks.length === 0) continue;
    const previous = wire[wire.length - 1];
    if (previous !== undefined && previous.role === message.role) previous.content.push(...blocks);
    else wire.push({ role: message.role, content: [...blocks] });
  }
  return wire.map((message) =>
    message.role === 'user' ? { role: 'user', content: orderUserBlocks(message.content) } : message,
  );
}
