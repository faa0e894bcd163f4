/** Chat runs (`sortie chat`): one agent session fed by the person. */
export { CHAT_TASK, runChat, type RunChatOptions } from './run-chat.ts';
export { CHAT_END_COMMAND, chatQuestion, isChatEnd } from './chat-messages.ts';
