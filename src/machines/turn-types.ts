import type {
  Message,
  ModelResponse,
  ToolCallPart,
  ToolDefinition,
  ToolResultPart,
} from '../models/model-types.ts';

/** Kept for the machines that still import it from here; the one definition is in src/base/reason.ts. */
export { reasonOf } from '../base/reason.ts';

/** What a `modelTurn` actor receives: the conversation so far and the 1-based turn number. */
export interface ModelTurnInput {
  messages: Message[];
  turn: number;
  /** The tools the machine offers (commanders: the list its rules know); agents leave it to the wiring. */
  tools?: ToolDefinition[];
  /** Agents: the skills loaded so far, in load order (their tools join the offered list). */
  loadedSkills?: readonly string[];
}

/** What a `modelTurn` actor resolves with; a full `ModelResponse` fits. */
export type ModelTurnOutput = Pick<ModelResponse, 'message' | 'stopReason'> &
  Partial<Pick<ModelResponse, 'usage'>>;

/** What an `executeTool` actor resolves with: the result content and the provider error flag. */
export interface ToolOutcome {
  content: ToolResultPart['content'];
  isError: boolean;
  /** The tool's result was stored as a large result; `content` is its `partial` summary. */
  stored?: boolean;
}

export { textOf, toolCallsOf } from '../base/conversation.ts';

/** A tool result part answering `call`. */
export function resultFor(call: ToolCallPart, outcome: ToolOutcome): ToolResultPart {
  return {
    type: 'tool_result',
    callId: call.id,
    name: call.name,
    content: outcome.content,
    isError: outcome.isError,
  };
}

/** An invoked actor's rejection, handed to the machine's `failFromError` action. */
export const failFromError = {
  type: 'failFromError',
  params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }),
} as const;

/** A model turn's reply: it joins the context (`acceptReply`), then its message is reported. */
export const acceptReplyActions = [
  {
    type: 'acceptReply',
    params: ({ event }: { event: { output: ModelTurnOutput } }) => event.output,
  },
  {
    type: 'emitMessageAppended',
    params: ({ event }: { event: { output: ModelTurnOutput } }) => ({
      message: event.output.message,
    }),
  },
] as const;
