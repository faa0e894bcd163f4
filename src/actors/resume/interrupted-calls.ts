/**
 * How a resumed run closes the tool calls a crash left without results: a call that finished
 * before the crash gets its journaled result; any other gets the spec's "interrupted" error,
 * so the model decides whether to call it again.
 */
import { unansweredToolCalls } from '../../journal/conversations.ts';
import type { Message, ToolCallPart, ToolResultPart } from '../../models/model-types.ts';
import { toolResult } from '../../tools/tool-result.ts';
import type { RestoredConversation } from '../contracts.ts';

/** The error text of a call a restart interrupted (runtime.md, "Run journal and resume"). */
export const INTERRUPTED_BY_RESTART =
  'interrupted by a restart; call it again if it is still needed';

/** The result of `call` after a restart: its journaled result, or the interrupted error. */
export function restartResult(
  call: ToolCallPart,
  journaled: { content: string; isError: boolean } | undefined,
): ToolResultPart {
  return {
    type: 'tool_result',
    callId: call.id,
    name: call.name,
    content: journaled?.content ?? toolResult.error(INTERRUPTED_BY_RESTART),
    isError: journaled?.isError ?? true,
  };
}

/**
 * The message that answers every unanswered call of the conversation's last reply, or null
 * when nothing is open. `answer` is asked first and may supply a call's result (call_agent
 * resumes its agent); otherwise the journaled result, or the interrupted error.
 */
export async function closeInterruptedCalls(
  messages: readonly Message[],
  restored: RestoredConversation,
  answer: (call: ToolCallPart) => Promise<ToolResultPart | undefined> = async () => undefined,
): Promise<Message | null> {
  const open = unansweredToolCalls(messages);
  if (open.length === 0 || messages.at(-1)?.role !== 'assistant') return null;
  const parts: ToolResultPart[] = [];
  for (const call of open) {
    parts.push((await answer(call)) ?? restartResult(call, restored.toolResult(call.id)));
  }
  return { role: 'user', parts };
}

/** Whether a message opens an agent call: a user message of text only (the task). */
export function opensCall(message: Message): boolean {
  return message.role === 'user' && message.parts.every((part) => part.type === 'text');
}

/** The index after the call that `opening` starts: the next opening, or the end. */
export function endOfCall(messages: readonly Message[], opening: number): number {
  for (let index = opening + 1; index < messages.length; index += 1) {
    if (opensCall(messages[index] as Message)) return index;
  }
  return messages.length;
}
