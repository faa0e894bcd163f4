/**
 * The tool calls a restart left unanswered in a conversation (`collect-mission-event.ts`
 * rebuilds the rest).
 */
import type { Message, ToolCallPart } from '../models/model-types.ts';

/**
 * The tool calls of the last assistant message that no later message answers: the calls a
 * crash interrupted (resume answers them, or continues `call_agent`'s own conversation).
 */
export function unansweredToolCalls(messages: readonly Message[]): ToolCallPart[] {
  const lastAssistant = messages.findLastIndex((message) => message.role === 'assistant');
  const assistant = messages[lastAssistant];
  if (assistant === undefined) return [];
  const answered = new Set<string>();
  for (const message of messages.slice(lastAssistant + 1)) {
    for (const part of message.parts) if (part.type === 'tool_result') answered.add(part.callId);
  }
  return assistant.parts.filter(
    (part): part is ToolCallPart => part.type === 'tool_call' && !answered.has(part.id),
  );
}
