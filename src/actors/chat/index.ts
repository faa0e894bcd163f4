/** Chat runs (`sortie chat`): one agent session fed by the person. */
export { runChat, type RunChatOptions } from './run-chat.ts';
export { chatStart } from './chat-session.ts';
export { CHAT_END_COMMAND, CHAT_TASK, chatQuestion, isChatEnd } from './chat-messages.ts';
