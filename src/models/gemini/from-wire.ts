/**
 * Gemini reply facts → sortie's (pure): finish reasons, usage, and one reply part → our part.
 * The stream accumulator feeds whole replies through these.
 */
import type { GenerateContentResponseUsageMetadata, Part as WirePart } from '@google/genai';
import type { Part, StopReason, Usage } from '../types.ts';

/** `STOP` → end (tool_use when the reply called functions), `MAX_TOKENS` → max_tokens, else other. */
export function mapFinishReason(
  finishReason: string | undefined,
  hasToolCalls: boolean,
): StopReason {
  if (finishReason === 'STOP') return hasToolCalls ? 'tool_use' : 'end';
  if (finishReason === 'MAX_TOKENS') return 'max_tokens';
  return 'other';
}

/**
 * Usage in sortie's four classes (models.md): the prompt count includes cached tokens, so they
 * are taken out of `input`; thoughts are billed as output and also kept as `reasoning`.
 */
export function normalizeUsage(usage: GenerateContentResponseUsageMetadata | undefined): Usage {
  const prompt = usage?.promptTokenCount ?? 0;
  const cached = usage?.cachedContentTokenCount ?? 0;
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  return {
    input: Math.max(0, prompt - cached),
    output: (usage?.candidatesTokenCount ?? 0) + thoughts,
    cacheRead: cached,
    cacheWrite: 0,
    reasoning: thoughts,
  };
}

/** Why a reply part has no sortie equivalent, or undefined when it has one. */
export function unsupportedPartKind(part: WirePart): string | undefined {
  if (part.functionCall !== undefined || part.text !== undefined) return undefined;
  const kinds = Object.keys(part).filter((key) => key !== 'thoughtSignature' && key !== 'thought');
  return kinds[0] ?? 'empty';
}

/** A function call part as a tool call; `makeId` names calls the API left without an id. */
export function toolCallFromWire(part: WirePart, makeId: () => string): Part {
  const call = part.functionCall!;
  const state: Record<string, unknown> = {};
  if (call.id !== undefined && call.id !== '') state['id'] = call.id;
  if (part.thoughtSignature !== undefined) state['signature'] = part.thoughtSignature;
  const toolCall: Part = {
    type: 'tool_call',
    id: call.id !== undefined && call.id !== '' ? call.id : makeId(),
    name: call.name ?? '',
    arguments: JSON.stringify(call.args ?? {}),
  };
  if (Object.keys(state).length > 0) toolCall.state = state;
  return toolCall;
}
