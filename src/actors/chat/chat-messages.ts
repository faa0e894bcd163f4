/** How a chat asks the person for the next message, and the message that ends the chat. */
import type { HumanQuestion } from '../../tools/builtins/human-ask.ts';

/** The task of a chat's one mission; the agent's actor id is `agent:chat/NAME`. */
export const CHAT_TASK = 'chat';

/** Typed as a message, ends the chat (as does the end of input). */
export const CHAT_END_COMMAND = '/exit';

/** The question each turn of a chat asks the person through the run's desk. */
export function chatQuestion(agent: string, turn: number): HumanQuestion {
  return {
    question: `Your message to ${agent} (${CHAT_END_COMMAND} ends the chat)`,
    choices: [],
    multiSelect: false,
    shortSummary: turn === 1 ? 'your first message' : 'your next message',
    additionalContext: null,
    timeoutSeconds: null,
  };
}

/** Whether the person's message ends the chat rather than going to the agent. */
export function isChatEnd(message: string): boolean {
  return message.trim() === CHAT_END_COMMAND;
}
