/**
 * The OpenTelemetry GenAI semantic conventions (v1.41.0; docs/observability.md) as attributes of
 * sortie's events: one function per span kind, plain data in and out, so the live export and
 * the export of a journal name everything the same way.
 */
import type { Attributes } from '@opentelemetry/api';
import type { Message, Part, ProviderName, StopReason, Usage } from '../base/conversation.ts';
import type { EventOf } from '../base/events.ts';

/** The conventions' well-known `gen_ai.provider.name` of each provider sortie speaks to. */
const PROVIDER_NAMES: Record<ProviderName, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  gemini: 'gcp.gemini',
  ollama: 'ollama',
};

/** `gen_ai.response.finish_reasons` values for sortie's stop reasons. */
const FINISH_REASONS: Partial<Record<StopReason, string>> = {
  end: 'stop',
  tool_use: 'tool_call',
  max_tokens: 'length',
  refusal: 'content_filter',
  safety: 'content_filter',
  blocked: 'content_filter',
};

/** Pico-dollars (a decimal string) as US dollars. */
export function dollarsOf(pico: bigint): number {
  return Number(pico) / 1e12;
}

/** Every input token, cached and cache-written ones included, as the conventions count them. */
export function inputTokensOf(usage: Usage): number {
  return usage.input + usage.cacheRead + usage.cacheWrite;
}

/** The attributes a `chat` span starts with. */
export function chatRequestAttributes(event: EventOf<'model.request'>): Attributes {
  return {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': PROVIDER_NAMES[event.model.provider] ?? event.model.provider,
    'gen_ai.request.model': event.model.apiName,
    'gen_ai.conversation.id': event.actor,
    ...(event.reasoning !== null ? { 'gen_ai.request.reasoning.level': event.reasoning } : {}),
    'sortie.model.config': event.model.config,
    'sortie.model.request_id': event.requestId,
    'sortie.turn': event.turn,
  };
}

/** The attributes a `chat` span ends with. */
export function chatResponseAttributes(event: EventOf<'model.response'>): Attributes {
  return {
    'gen_ai.response.model': event.model.apiName,
    'gen_ai.usage.input_tokens': inputTokensOf(event.usage),
    'gen_ai.usage.output_tokens': event.usage.output,
    'gen_ai.usage.cache_read.input_tokens': event.usage.cacheRead,
    'gen_ai.usage.cache_creation.input_tokens': event.usage.cacheWrite,
    'gen_ai.usage.reasoning.output_tokens': event.usage.reasoning,
    'gen_ai.response.finish_reasons': [FINISH_REASONS[event.stopReason] ?? event.stopReason],
    'sortie.cost.usd': dollarsOf(BigInt(event.costPico)),
    ...(event.unpriced ? { 'sortie.cost.unpriced': true } : {}),
  };
}

/** The attributes an `execute_tool` span starts with; MCP tools (`mcp_<server>_<tool>`) say so. */
export function toolAttributes(event: EventOf<'tool.called'>): Attributes {
  const mcp = /^mcp_([^_]+)_(.+)$/.exec(event.tool);
  return {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': event.tool,
    'gen_ai.tool.call.id': event.callId,
    'gen_ai.tool.type': mcp === null ? 'function' : 'extension',
    ...(mcp !== null
      ? {
          'mcp.method.name': 'tools/call',
          'sortie.mcp.server': mcp[1] ?? '',
          'sortie.mcp.tool': mcp[2] ?? '',
        }
      : {}),
  };
}

/** A message in the conventions' shape for `gen_ai.input.messages` / `output.messages`. */
export function conventionMessage(message: Message): Record<string, unknown> {
  return { role: message.role, parts: message.parts.map(conventionPart) };
}

function conventionPart(part: Part): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', content: part.text };
    case 'reasoning':
      return { type: 'reasoning', content: part.text };
    case 'tool_call':
      return { type: 'tool_call', id: part.id, name: part.name, arguments: part.arguments };
    case 'tool_result':
      return {
        type: 'tool_call_response',
        id: part.callId,
        response: typeof part.content === 'string' ? part.content : '[rich content]',
      };
    case 'image':
    case 'document':
      // Base64 payloads would swamp a trace; their kind says what was sent.
      return { type: 'blob', mime_type: part.mediaType, content: '[omitted]' };
  }
}
