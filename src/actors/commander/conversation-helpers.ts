/** Small helpers over conversations shared by the commander wiring. */
import type { Message } from '../../models/model-types.ts';

/**
 * The conversation with a user text added. A conversation that ends with a user message
 * (tool results) gets the text in that message, so roles keep alternating on every wire.
 */
export function withUserText(messages: readonly Message[], text: string): Message[] {
  const last = messages.at(-1);
  if (last?.role === 'user') {
    return [
      ...messages.slice(0, -1),
      { role: 'user', parts: [...last.parts, { type: 'text', text }] },
    ];
  }
  return [...messages, { role: 'user', parts: [{ type: 'text', text }] }];
}

/** A user message with one text part. */
export function userText(text: string): Message {
  return { role: 'user', parts: [{ type: 'text', text }] };
}
