/**
 * Our messages → Gemini `contents` (pure). Roles become user/model, consecutive messages of
 * one role share one Content, tool results become `functionResponse` parts (Gemini pairs them
 * with calls by name, and by id when the API gave one), and thought signatures go back on the
 * parts that carried them, exactly as received.
 */
import type { Content, Part as WirePart } from '@google/genai';
import type {
  DocumentPart,
  ImagePart,
  Message,
  Part,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../model-types.ts';
import { perObject } from '../../base/per-object.ts';

function signatureOf(state: Record<string, unknown> | undefined): string | undefined {
  const signature = state?.['signature'];
  return typeof signature === 'string' ? signature : undefined;
}

function withSignature(part: WirePart, state: Record<string, unknown> | undefined): WirePart {
  const signature = signatureOf(state);
  return signature === undefined ? part : { ...part, thoughtSignature: signature };
}

function inlinePart(part: ImagePart | DocumentPart): WirePart {
  return { inlineData: { mimeType: part.mediaType, data: part.data } };
}

/** The wire wants an object; arguments the API produced always parse, others fall back to `{}`. */
function parseArguments(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function functionCallPart(part: ToolCallPart): WirePart {
  const apiId = part.state?.['id'];
  const functionCall = {
    ...(typeof apiId === 'string' ? { id: apiId } : {}),
    name: part.name,
    args: parseArguments(part.arguments),
  };
  return withSignature({ functionCall }, part.state);
}

/**
 * A tool result as a functionResponse, plus the images and PDFs of a rich result as inline
 * parts of the same user turn (function responses themselves carry text only on older models).
 */
function functionResponseParts(
  part: ToolResultPart,
  apiIds: ReadonlyMap<string, string>,
): WirePart[] {
  const rich = typeof part.content === 'string' ? [] : part.content;
  const text =
    typeof part.content === 'string'
      ? part.content
      : rich
          .filter((item): item is TextPart => item.type === 'text')
          .map((item) => item.text)
          .join('\n');
  const apiId = apiIds.get(part.callId);
  const functionResponse = {
    ...(apiId !== undefined ? { id: apiId } : {}),
    name: part.name,
    response: part.isError ? { error: text } : { output: text },
  };
  const media = rich
    .filter((item): item is ImagePart | DocumentPart => item.type !== 'text')
    .map(inlinePart);
  return [{ functionResponse }, ...media];
}

function partToWire(part: Part, apiIds: ReadonlyMap<string, string>): WirePart[] {
  switch (part.type) {
    case 'text':
      // Empty text is rejected by the API unless it carries a signature to hand back.
      if (part.text === '' && signatureOf(part.state) === undefined) return [];
      return [withSignature({ text: part.text }, part.state)];
    case 'image':
    case 'document':
      return [inlinePart(part)];
    case 'tool_call':
      return [functionCallPart(part)];
    case 'tool_result':
      return functionResponseParts(part, apiIds);
    case 'reasoning':
      // Another provider's reasoning means nothing to Gemini.
      if (part.provider !== 'gemini') return [];
      return [withSignature({ text: part.text, thought: true }, part.state)];
  }
}

/** The (our id, API id) pairs of a message's calls, once per message object. */
const messageCallIds = perObject((message: Message): Array<[string, string]> => {
  const pairs: Array<[string, string]> = [];
  for (const part of message.parts) {
    const apiId = part.type === 'tool_call' ? part.state?.['id'] : undefined;
    if (part.type === 'tool_call' && typeof apiId === 'string') pairs.push([part.id, apiId]);
  }
  return pairs;
});

/** Call ids the API itself assigned, by our call id, so responses can quote them back. */
function apiCallIds(messages: readonly Message[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const message of messages)
    for (const [id, apiId] of messageCallIds(message)) ids.set(id, apiId);
  return ids;
}

/** Function responses lead a user turn, so they line up with the calls they answer. */
function orderUserParts(parts: WirePart[]): WirePart[] {
  const responses = parts.filter((part) => part.functionResponse !== undefined);
  if (responses.length === 0 || responses.length === parts.length) return parts;
  return [...responses, ...parts.filter((part) => part.functionResponse === undefined)];
}

/**
 * A message's wire parts and the API call ids its tool results quoted (a result's wire form
 * depends on its call, which lives in another message: the cached form holds only while the
 * conversation still gives each of its calls the same API id).
 */
interface ConvertedMessage {
  parts: WirePart[];
  quoted: Array<[callId: string, apiId: string | undefined]>;
}

const converted = new WeakMap<Message, ConvertedMessage>();

/** A message's wire parts, converted once per message object while its calls' ids hold. */
function messageParts(message: Message, apiIds: ReadonlyMap<string, string>): WirePart[] {
  const cached = converted.get(message);
  if (cached?.quoted.every(([callId, apiId]) => apiIds.get(callId) === apiId) === true)
    return cached.parts;
  const parts = message.parts.flatMap((part) => partToWire(part, apiIds));
  const quoted = message.parts.flatMap((part): ConvertedMessage['quoted'] =>
    part.type === 'tool_result' ? [[part.callId, apiIds.get(part.callId)]] : [],
  );
  converted.set(message, { parts, quoted });
  return parts;
}

/**
 * Converts the conversation to Gemini contents. The parts are shared with earlier requests
 * (never change them); the arrays are new.
 */
export function toGeminiContents(messages: readonly Message[]): Content[] {
  const apiIds = apiCallIds(messages);
  const contents: Array<Content & { parts: WirePart[] }> = [];
  for (const message of messages) {
    const parts = messageParts(message, apiIds);
    if (parts.length === 0) continue;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const previous = contents[contents.length - 1];
    if (previous !== undefined && previous.role === role) previous.parts.push(...parts);
    else contents.push({ role, parts: [...parts] });
  }
  return contents.map((content) =>
    content.role === 'user' ? { role: 'user', parts: orderUserParts(content.parts) } : content,
  );
}
