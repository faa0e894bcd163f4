import type { Protocol, ScriptTurn } from './script.ts';

/** What a protocol handler extracts from a request so the server can match and record it. */
export interface RequestSummary {
  /** The requested model name. */
  model: string;
  stream: boolean;
  /** The system text, or '' when none. */
  system: string;
  /** Text of the last user message, tool results included. */
  lastMessage: string;
  /** Every message's text joined, for `contains` matching. */
  allText: string;
}

/** Per-turn facts the server passes to a handler so generated ids are stable. */
export interface TurnContext {
  /** Index of the script turn being answered. */
  turnIndex: number;
  model: string;
}

/**
 * One wire protocol of the scripted model server. Handlers are pure: they turn requests into
 * summaries and script turns into response bodies; the server does all timing, errors,
 * truncation and socket handling.
 */
export interface ProtocolHandler {
  readonly protocol: Protocol;
  /** True when this handler serves the request (by method and URL path). */
  accepts(method: string, path: string): boolean;
  summarize(path: string, body: unknown): RequestSummary;
  /** The complete JSON body of a non-streaming reply. */
  reply(turn: ScriptTurn, context: TurnContext): unknown;
  /** The SSE frames of a streaming reply, each a complete frame ending in a blank line. */
  stream(turn: ScriptTurn, context: TurnContext): string[];
  /** The JSON body of an error reply in this provider's error format. */
  errorBody(status: number, message: string): unknown;
}
