/**
 * The one interface every part of sortie uses to talk to a model. Adapters (one folder per
 * wire protocol) convert these shapes to and from the provider's wire format.
 */

import type {
  Message,
  ProviderName,
  ReasoningLevel,
  StopReason,
  ToolDefinition,
  Usage,
} from '../base/conversation.ts';

// The conversation's shapes are shared by every layer (events carry them); they live in base.
export type {
  ProviderName,
  ReasoningLevel,
  TextPart,
  ImagePart,
  DocumentPart,
  ToolCallPart,
  ToolResultPart,
  ReasoningPart,
  Part,
  Message,
  ToolDefinition,
  Usage,
  StopReason,
} from '../base/conversation.ts';

/** Prices in USD per 1,000,000 tokens. */
export interface Pricing {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A model key resolved against its model block: everything needed to call it and price it. */
export interface ResolvedModel {
  provider: ProviderName;
  /** The model block's label (`models.CONFIG.KEY`). */
  config: string;
  key: string;
  /** The model name sent on the wire. */
  apiName: string;
  baseUrl?: string;
  apiKey?: string;
  promptCaching: boolean;
  reasoningCapable: boolean;
  /** Undefined when no price is known (unpriced); local models are priced at 0. */
  pricing?: Pricing;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  /** Applied only when the model is reasoning-capable. */
  reasoning?: ReasoningLevel;
  /** False: the model is asked for one tool call per reply, where its API takes it. */
  parallelToolCalls?: boolean;
  maxOutputTokens?: number;
  /** The calling actor's stable id; sent as the `x-sortie-actor` header for test matching. */
  actor?: string;
  /**
   * The actor's 1-based model turn in the run: its answered turns so far plus one, counted
   * across resumes (a resumed actor goes on from its journaled turns). Cassettes key on it.
   */
  turn?: number;
  signal?: AbortSignal;
  /** Streamed text as it arrives. */
  onDelta?: (text: string) => void;
}

export interface ModelResponse {
  message: Message;
  stopReason: StopReason;
  /**
   * What the provider said about a declined reply, for people: the refusal text or
   * explanation, the block reason, the filtered categories, the malformed call's message.
   */
  stopDetail?: string;
  usage: Usage;
  /** Model name the provider reported, or the requested one. */
  model: string;
  /** Problems the adapter noticed but survived (unknown item types, ...). */
  warnings: string[];
}

export interface ModelClient {
  readonly model: ResolvedModel;
  generate(request: ModelRequest): Promise<ModelResponse>;
}
