/**
 * The script that drives the scripted model server: a list of turns, each answering one
 * model request. Turns are consumed in order, except that a turn with `match` answers the
 * first request it matches (so parallel actors are answered deterministically).
 */

import type { TurnMatch } from '../base/turn-match.ts';

export type { TurnMatch } from '../base/turn-match.ts';

export type Protocol = 'openai' | 'anthropic' | 'gemini';

export interface ScriptedToolCall {
  name: string;
  /** An object is sent as JSON; a string is sent verbatim (use it for malformed JSON). */
  arguments: Record<string, unknown> | string;
  /** Defaults to a stable generated id (`call_<turn>_<n>`). */
  id?: string;
}

export interface ScriptedUsage {
  /** Uncached input tokens. */
  input?: number;
  /** Output tokens, reasoning included (as in Usage). */
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  reasoning?: number;
}

export interface ScriptedError {
  /** HTTP status to answer with. */
  status: number;
  message?: string;
  /** Sent verbatim as the `Retry-After` header (seconds or an HTTP date). */
  retryAfter?: string;
  /** Sent as the `retry-after-ms` header. */
  retryAfterMs?: number;
}

export interface ScriptTurn {
  match?: TurnMatch;
  /** Restrict the turn to one protocol (default: any). */
  protocol?: Protocol;
  text?: string;
  toolCalls?: ScriptedToolCall[];
  /** Reasoning text; its opaque state (signature, encrypted content) is generated. */
  reasoning?: string;
  usage?: ScriptedUsage;
  /**
   * Default: `tool_use` when there are tool calls, else `end`. `refusal` answers with the
   * protocol's own refusal, `text` being what the model says: an OpenAI refusal content
   * part, an Anthropic `stop_reason: "refusal"` with `text` as the explanation, a Gemini
   * reply stopped with `finishReason: "SAFETY"` and `text` as its finish message.
   */
  stopReason?: 'end' | 'tool_use' | 'max_tokens' | 'refusal';
  /** Wait before the first byte. */
  delayMs?: number;
  /**
   * Hold the answer (before `delayMs`) until this settles: a test lets a reply go only once
   * something else has happened, instead of guessing how long that takes.
   */
  heldUntil?: Promise<unknown>;
  /** Answer with an HTTP error instead of a reply. */
  error?: ScriptedError;
  /**
   * Streaming only: these server-sent-event frames, verbatim, instead of the frames built
   * from the turn: a provider's recorded stream (`splitSseFrames` splits a recording). The
   * faults below apply to them as to built frames.
   */
  frames?: string[];
  /**
   * Stop early and close the connection. Streaming: `true` sends the first events whole,
   * `'mid-frame'` also half of the next one (the body ends inside an event's JSON).
   * Non-streaming: either sends half the body and drops the socket.
   */
  truncate?: boolean | 'mid-frame';
  /** Streaming only: send the first events, then stay silent this long. */
  stallMs?: number;
  /** With `stallMs`: called once the first events are written, as the silence begins. */
  stalled?: () => void;
  /** Close the socket without any answer (a connection reset). */
  reset?: boolean;
}

/** What the server saw of one request; kept in order of arrival. */
export interface RecordedRequest {
  protocol: Protocol;
  method: string;
  path: string;
  /** Lower-cased header names; credentials replaced by `[redacted]`. */
  headers: Record<string, string>;
  body: unknown;
  actor?: string;
  stream: boolean;
  /** Index of the script turn that answered, or -1 when none did. */
  turn: number;
}
