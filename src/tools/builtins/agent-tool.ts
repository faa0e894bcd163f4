import type { HumanAsker } from './human-ask.ts';
import type {
  DocumentPart,
  ImagePart,
  Message,
  StopReason,
  TextPart,
  ToolDefinition,
} from '../../models/model-types.ts';
import { toolResult } from '../tool-result.ts';

/** What an agent tool hands back: plain text (usually compact JSON) or rich content. */
export interface ToolOutcome {
  content: string | Array<TextPart | ImagePart | DocumentPart>;
  isError: boolean;
  /**
   * The part of a successful result that large-result interception judges and stores in
   * place of the whole content (HTTP tools: the response body, so a fetched array can become
   * a dataset), with the fields shown beside its `partial` summary.
   */
  payload?: { text: string; beside: Record<string, unknown> };
}

/** Per-call context every agent tool receives; families read only what they need. */
export interface AgentToolContext {
  /** Aborted when the calling actor stops (cancellation, task failure). */
  signal: AbortSignal;
  /** The model's id of the call being executed (a question to the person is known by it). */
  callId?: string;
  /** The calling actor's way to the person (an MCP server's elicitation asks through it). */
  human?: HumanAsker;
  /** The calling agent's model (an MCP server's sampling asks it). */
  sampler?: ModelSampler;
  /** Takes what a tool says while it runs (an MCP server's progress and log messages). */
  notify?: (notice: ToolNotice) => void;
}

/** News from a tool while it runs: an MCP server's progress on the call, or its log message. */
export type ToolNotice =
  | {
      kind: 'progress';
      server: string;
      callId: string;
      progress: number;
      total: number | null;
      message: string | null;
    }
  | { kind: 'log'; server: string; level: string; logger: string | null; text: string };

/** One request to a model outside any conversation: no tools, the reply's text is what counts. */
export interface SampleRequest {
  system: string;
  messages: Message[];
  maxOutputTokens: number;
}

/** The model's reply to a `SampleRequest`. */
export interface SampleReply {
  message: Message;
  /** The model name the provider reported. */
  model: string;
  stopReason: StopReason;
}

/** The calling agent's model, asked once; the turn is counted (tokens, cost, budget) on the agent. */
export interface ModelSampler {
  sample(request: SampleRequest, signal: AbortSignal): Promise<SampleReply>;
}

/**
 * A tool offered to agents. `execute` receives arguments already validated against
 * `definition.parameters` (defaults applied); failures come back as results, never throws.
 */
export interface AgentTool {
  definition: ToolDefinition;
  /**
   * True when the tool checks its arguments itself (an MCP server checks them against its own
   * schema, written in whatever JSON Schema draft it uses): sortie then only requires a JSON
   * object and leaves `definition.parameters` to the tool.
   */
  validatesOwnArguments?: boolean;
  /**
   * True when what the tool writes outlives the run (a file in a slot): its arguments keep
   * `${secrets.NAME}` as written, never the value, so no later run can read a secret back.
   */
  keepsSecretPlaceholders?: boolean;
  execute(args: Record<string, unknown>, context: AgentToolContext): Promise<ToolOutcome>;
}

/** A success result: `{"status":"ok", ...fields}` as compact JSON. */
export function okOutcome(fields: Record<string, unknown> = {}): ToolOutcome {
  return { content: toolResult.ok(fields), isError: false };
}

/** A failure result: `{"status":"error","error":message, ...extra}` with the error flag set. */
export function errorOutcome(message: string, extra: Record<string, unknown> = {}): ToolOutcome {
  return { content: toolResult.error(message, extra), isError: true };
}

/** A plain-text success result (file contents, listings, text chunks). */
export function textOutcome(text: string): ToolOutcome {
  return { content: text, isError: false };
}
