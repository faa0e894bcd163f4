/**
 * Gemini reply facts → sortie's (pure): finish reasons, usage, and one reply part → our part.
 * The stream accumulator feeds whole replies through these.
 */
import type {
  Candidate,
  GenerateContentResponsePromptFeedback,
  Part as WirePart,
} from '@google/genai';
import type { StopReason, ToolCallPart } from '../model-types.ts';

/** Finish reasons of a reply a safety or policy filter stopped. */
const FILTERED = new Set([
  'SAFETY',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
]);

/** Finish reasons of a reply whose function call the API could not use. */
const MALFORMED_CALL = new Set(['MALFORMED_FUNCTION_CALL', 'UNEXPECTED_TOOL_CALL']);

/**
 * `STOP` → end (tool_use when the reply called functions), `MAX_TOKENS` → max_tokens,
 * filter reasons (`SAFETY`, `PROHIBITED_CONTENT`, ...) → safety, `MALFORMED_FUNCTION_CALL`
 * → malformed_tool_call, anything else → other.
 */
export function mapFinishReason(
  finishReason: string | undefined,
  hasToolCalls: boolean,
): StopReason {
  if (finishReason === 'STOP') return hasToolCalls ? 'tool_use' : 'end';
  if (finishReason === 'MAX_TOKENS') return 'max_tokens';
  if (finishReason !== undefined && FILTERED.has(finishReason)) return 'safety';
  if (finishReason !== undefined && MALFORMED_CALL.has(finishReason)) return 'malformed_tool_call';
  return 'other';
}

/** `PROHIBITED_CONTENT`, or `SAFETY: the message` when the API explained the block. */
export function blockDetail(feedback: GenerateContentResponsePromptFeedback): string {
  const reason = String(feedback.blockReason);
  const message = feedback.blockReasonMessage;
  return message !== undefined && message !== '' ? `${reason}: ${message}` : reason;
}

/**
 * What stopped a filtered or malformed reply: the finish reason, the categories the filter
 * blocked, and the API's finish message when it sent one.
 */
export function finishDetail(
  candidate: Pick<Candidate, 'finishReason' | 'finishMessage' | 'safetyRatings'>,
): string {
  const blocked = (candidate.safetyRatings ?? [])
    .filter((rating) => rating.blocked === true && rating.category !== undefined)
    .map((rating) => String(rating.category));
  const head =
    blocked.length > 0
      ? `${String(candidate.finishReason)} (${blocked.join(', ')})`
      : String(candidate.finishReason);
  const message = candidate.finishMessage;
  return message !== undefined && message !== '' ? `${head}: ${message}` : head;
}

/** Why a reply part has no sortie equivalent, or undefined when it has one. */
export function unsupportedPartKind(part: WirePart): string | undefined {
  if (part.functionCall !== undefined || part.text !== undefined) return undefined;
  const kinds = Object.keys(part).filter((key) => key !== 'thoughtSignature' && key !== 'thought');
  return kinds[0] ?? 'empty';
}

/** A function call part as a tool call; `makeId` names calls the API left without an id. */
export function toolCallFromWire(part: WirePart, makeId: () => string): ToolCallPart {
  const call = part.functionCall!;
  const state: Record<string, unknown> = {};
  if (call.id !== undefined && call.id !== '') state['id'] = call.id;
  if (part.thoughtSignature !== undefined) state['signature'] = part.thoughtSignature;
  const toolCall: ToolCallPart = {
    type: 'tool_call',
    id: call.id !== undefined && call.id !== '' ? call.id : makeId(),
    name: call.name ?? '',
    arguments: JSON.stringify(call.args ?? {}),
  };
  if (Object.keys(state).length > 0) toolCall.state = state;
  return toolCall;
}
