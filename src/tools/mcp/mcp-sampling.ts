/**
 * A server's `sampling/createMessage` as one request to the calling agent's model: its
 * messages (text and images) and system prompt go as they are, no tools are offered, and the
 * reply's text goes back. A block without `sampling = true` declines with a clear error.
 */
import {
  ErrorCode,
  type CreateMessageRequest,
  type CreateMessageResult,
  type SamplingMessage,
} from '@modelcontextprotocol/sdk/types.js';
import type { Message, Part, StopReason } from '../../models/model-types.ts';
import type { SampleReply, SampleRequest } from '../builtins/agent-tool.ts';
import { McpRequestRefusedError } from './mcp-errors.ts';
import { serverLabel } from './mcp-spec.ts';

type SampleParams = CreateMessageRequest['params'];
type SamplingBlock = Extract<SamplingMessage['content'], { type: string }>;

/** The JSON-RPC error code MCP's specification uses for a sampling request the user refused. */
export const SAMPLING_REFUSED = -1;

/** The error a server gets for sampling when its block does not allow it. */
export function samplingOffError(server: string): McpRequestRefusedError {
  return new McpRequestRefusedError(
    SAMPLING_REFUSED,
    `${serverLabel(server)} may not use the agent's model: set sampling = true in its mcp block to allow it`,
  );
}

/** The error a server gets for sampling outside any agent's call to it. */
export function noCallerError(server: string): McpRequestRefusedError {
  return new McpRequestRefusedError(
    SAMPLING_REFUSED,
    `${serverLabel(server)} asked for a model outside a tool call: no agent's model can answer`,
  );
}

/** The model request of a server's sampling; content a model cannot take is refused. */
export function sampleRequest(server: string, params: SampleParams): SampleRequest {
  const messages: Message[] = params.messages.map((message) => ({
    role: message.role,
    parts: blocksOf(message.content).map((block) => partOf(server, block)),
  }));
  return {
    system: params.systemPrompt ?? '',
    messages,
    maxOutputTokens: params.maxTokens,
  };
}

/** What the server gets back: the reply's text, the model's name, the stop reason in MCP's words. */
export function sampleResult(reply: SampleReply): CreateMessageResult {
  const text = reply.message.parts
    .flatMap((part) => (part.type === 'text' ? [part.text] : []))
    .join('');
  return {
    role: 'assistant',
    model: reply.model,
    stopReason: mcpStopReason(reply.stopReason),
    content: { type: 'text', text },
  };
}

function blocksOf(content: SamplingMessage['content']): SamplingBlock[] {
  return Array.isArray(content) ? content : [content];
}

function partOf(server: string, block: SamplingBlock): Part {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.type === 'image') return { type: 'image', mediaType: block.mimeType, data: block.data };
  // Audio has no part in sortie's messages; tool use needs the tools capability, not offered.
  throw new McpRequestRefusedError(
    ErrorCode.InvalidParams,
    `${serverLabel(server)} sent ${block.type} content to sample: sortie sends models text and images only`,
  );
}

function mcpStopReason(reason: StopReason): string {
  switch (reason) {
    case 'end':
      return 'endTurn';
    case 'max_tokens':
      return 'maxTokens';
    default:
      return reason;
  }
}
