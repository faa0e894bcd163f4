/**
 * What a resumed run rebuilds from its journal besides task outcomes: every conversation
 * (from `message.appended`, in order), the tool calls a restart left unanswered, and the
 * seq to continue numbering from.
 */
import type { Message, ToolCallPart } from '../models/types.ts';
import type { MissionEvent } from '../runtime/events.ts';

/** Every conversation by id (actor id, or `ACTOR#fork`), messages in append order. */
export function conversationsOf(events: Iterable<MissionEvent>): Map<string, Message[]> {
  const conversations = new Map<string, Message[]>();
  for (const event of events) {
    if (event.type !== 'message.appended') continue;
    let messages = conversations.get(event.conversation);
    if (messages === undefined) {
      messages = [];
      conversations.set(event.conversation, messages);
    }
    messages.push(event.message);
  }
  return conversations;
}

/**
 * The tool calls of the last assistant message that no later message answers: the calls a
 * crash interrupted (resume answers them, or continues `call_agent`'s own conversation).
 */
export function unansweredToolCalls(messages: readonly Message[]): ToolCallPart[] {
  let lastAssistant = -1;
  messages.forEach((message, index) => {
    if (message.role === 'assistant') lastAssistant = index;
  });
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

/** The highest seq in a journal (0 when empty): `EventBus({ lastSeq })` of a resumed run. */
export function lastSeqOf(events: Iterable<MissionEvent>): number {
  let last = 0;
  for (const event of events) last = Math.max(last, event.seq);
  return last;
}
