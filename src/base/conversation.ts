/**
 * The shapes of a conversation with a model: messages and their parts, tools as offered, token
 * usage and stop reasons. Shared by every layer: the models layer converts them to and from each
 * wire protocol, events carry them, the journal stores them, the TUI shows them.
 */

export type ProviderName = 'openai' | 'anthropic' | 'gemini' | 'ollama';
export type ReasoningLevel = 'low' | 'medium' | 'high';

export interface TextPart {
  type: 'text';
  text: string;
  /**
   * Opaque provider state to send back exactly as received: Gemini `{signature}` (a thought
   * signature), OpenAI `{phase}` (`commentary` or `final_answer` on the message item).
   */
  state?: Record<string, unknown>;
}

export interface ImagePart {
  type: 'image';
  /** `image/png`, `image/jpeg`, `image/gif`, `image/webp`. */
  mediaType: string;
  /** Base64 without a data: prefix. */
  data: string;
}

export interface DocumentPart {
  type: 'document';
  mediaType: 'application/pdf';
  data: string;
  filename?: string;
}

export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  /** The arguments as the model sent them: raw JSON text, possibly malformed. */
  arguments: string;
  state?: Record<string, unknown>;
}

export interface ToolResultPart {
  type: 'tool_result';
  callId: string;
  name: string;
  /** Plain text (usually compact JSON), or rich content for `file_view`. */
  content: string | Array<TextPart | ImagePart | DocumentPart>;
  isError: boolean;
}

/**
 * Reasoning the model produced. `state` is the provider's opaque round-trip data, sent back
 * exactly as received: OpenAI `{id, encrypted_content, summary}`, Anthropic `{signature}` or
 * `{redacted_data}`, Gemini `{signature}`.
 */
export interface ReasoningPart {
  type: 'reasoning';
  provider: ProviderName;
  text: string;
  state?: Record<string, unknown>;
}

export type Part =
  TextPart | ImagePart | DocumentPart | ToolCallPart | ToolResultPart | ReasoningPart;

export interface Message {
  role: 'user' | 'assistant';
  parts: Part[];
}

/** A tool as offered to a model; `parameters` is JSON Schema 2020-12. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Token usage in four disjoint classes (plus reasoning, which is included in `output`). */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
  /**
   * True when `reasoning` is sortie's estimate because the provider did not itemise it
   * (Anthropic thinking without `output_tokens_details`); absent when it was reported.
   */
  reasoningEstimated?: true;
}

/**
 * Why a reply ended. Beyond the ordinary `end` / `tool_use` / `max_tokens`, the provider
 * can decline: `refusal` (the model refused: Anthropic `stop_reason: "refusal"`, an OpenAI
 * refusal content part), `blocked` (the prompt was blocked before any answer: Gemini
 * `promptFeedback.blockReason`), `safety` (a safety filter stopped the reply: Gemini
 * `SAFETY`, `PROHIBITED_CONTENT`, ..., OpenAI `content_filter`) and `malformed_tool_call`
 * (Gemini `MALFORMED_FUNCTION_CALL`). Those four fail the turn (see `stoppedError`).
 */
export type StopReason =
  | 'end'
  | 'tool_use'
  | 'max_tokens'
  | 'refusal'
  | 'blocked'
  | 'safety'
  | 'malformed_tool_call'
  | 'other';

/** The tool calls of an assistant message, in order. */
export function toolCallsOf(message: Message): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool_call');
}

/** The text of an assistant message: its text parts joined. */
export function textOf(message: Message): string {
  return message.parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('');
}

/**
 * A change to a conversation: the messages from `from` on are kept, after `head`. Replaying it
 * on the same conversation (the journal on resume) gives the same result.
 */
export interface ContextCut {
  kind: 'pruned' | 'compacted';
  /** Index of the first kept message (a model reply) in the conversation before the cut. */
  from: number;
  /** The user message put before the kept turns: the task, or the task and a summary. */
  head: Message;
  /** Model turns (replies) before and after. */
  turnsBefore: number;
  turnsAfter: number;
  /** The prompt size that triggered a compaction; null for pruning. */
  inputTokens: number | null;
}
