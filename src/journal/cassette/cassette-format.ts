/**
 * The cassette format (JSONL): a header line `{"cassette":1,"note","created"}`, then one entry
 * per model turn, normalised (sortie's Message/ModelResponse shapes, never wire bytes or
 * headers). Entries are keyed by actor id and that actor's 1-based turn number.
 */
import type { ModelReference } from '../../base/events.ts';
import type {
  Message,
  ModelRequest,
  ModelResponse,
  ReasoningLevel,
  ResolvedModel,
  ToolDefinition,
} from '../../models/model-types.ts';

/** The format version this code reads and writes. */
export const CASSETTE_VERSION = 1;

/** The first line of every cassette. */
export interface CassetteHeader {
  cassette: typeof CASSETTE_VERSION;
  /** Where the cassette came from (recorded run, hand-written script). */
  note: string;
  /** ISO time of creation. */
  created: string;
}

/** The parts of a request that decide the answer. */
export interface CassetteRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  reasoning: ReasoningLevel | null;
}

/** One model turn. */
export interface CassetteEntry {
  actor: string;
  /** 1-based, counted per actor. */
  turn: number;
  model: ModelReference;
  request: CassetteRequest;
  /** Usage included, so cost replays. */
  response: ModelResponse;
}

/** A loaded cassette. */
export interface Cassette {
  header: CassetteHeader;
  entries: CassetteEntry[];
}

/** The actor key of requests that carry no actor id. */
export const NO_ACTOR = '(no actor)';

/** The model fields a cassette keeps (never the key or the base URL). */
export function modelReference(model: ResolvedModel): ModelReference {
  return { provider: model.provider, config: model.config, key: model.key, apiName: model.apiName };
}

/** The comparable part of a request, as plain JSON (undefined fields dropped). */
export function cassetteRequest(request: ModelRequest): CassetteRequest {
  return JSON.parse(
    JSON.stringify({
      system: request.system,
      messages: request.messages,
      tools: request.tools,
      reasoning: request.reasoning ?? null,
    }),
  ) as CassetteRequest;
}

/** What is wrong with a parsed entry line, or undefined when it has the entry's shape. */
export function entryProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an entry object';
  if (typeof value.actor !== 'string') return 'entry has no "actor"';
  if (typeof value.turn !== 'number' || !Number.isInteger(value.turn) || value.turn < 1) {
    return 'entry "turn" must be a whole number from 1';
  }
  const model = value.model;
  if (
    !isObject(model) ||
    ['provider', 'config', 'key', 'apiName'].some((field) => typeof model[field] !== 'string')
  ) {
    return 'entry "model" needs provider, config, key and apiName';
  }
  const request = value.request;
  if (
    !isObject(request) ||
    typeof request.system !== 'string' ||
    !Array.isArray(request.messages) ||
    !Array.isArray(request.tools)
  ) {
    return 'entry "request" needs system, messages and tools';
  }
  const response = value.response;
  if (
    !isObject(response) ||
    !isObject(response.message) ||
    !Array.isArray(response.message.parts)
  ) {
    return 'entry "response" needs a message with parts';
  }
  if (!isObject(response.usage) || typeof response.stopReason !== 'string') {
    return 'entry "response" needs usage and stopReason';
  }
  return undefined;
}

/** What is wrong with a parsed header line. */
export function headerProblem(value: unknown): string | undefined {
  if (!isObject(value) || !('cassette' in value))
    return 'the first line must be the cassette header {"cassette":1,...}';
  if (value.cassette !== CASSETTE_VERSION)
    return `unsupported cassette version ${JSON.stringify(value.cassette)} (this sortie reads ${CASSETTE_VERSION})`;
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
