/**
 * Gemini `generateContent` for the scripted model server: `POST /v1beta/models/M:generateContent`
 * and `:streamGenerateContent?alt=sse`. Streams are `data:` frames only — Gemini sends no
 * `event:` lines. Replies carry thought parts, thought signatures and Google's usage metadata.
 */
import type { ProtocolHandler, RequestSummary, TurnContext } from '../protocol.ts';
import type { ScriptTurn } from '../script.ts';

type WireObject = Record<string, unknown>;

const PATH = /\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The thought signature the server generates for a turn's reasoning (stable per turn). */
export function scriptedThoughtSignature(turnIndex: number, reasoning: string): string {
  return Buffer.from(`sortie-scripted-thought:${turnIndex}:${reasoning}`).toString('base64');
}

function functionCallPart(call: NonNullable<ScriptTurn['toolCalls']>[number]): WireObject {
  let args: unknown = call.arguments;
  if (typeof call.arguments === 'string') {
    try {
      args = JSON.parse(call.arguments);
    } catch {
      // Gemini always sends objects; a malformed scripted string is passed as it is.
    }
  }
  return {
    functionCall: { ...(call.id !== undefined ? { id: call.id } : {}), name: call.name, args },
  };
}

/** The parts of a turn, complete; the signature sits on the first call, else on the answer. */
function replyParts(turn: ScriptTurn, turnIndex: number): WireObject[] {
  const thought: WireObject | undefined =
    turn.reasoning !== undefined ? { text: turn.reasoning, thought: true } : undefined;
  // A refusal's text is the finish message of a reply stopped for safety, not a part.
  const text: WireObject | undefined =
    turn.text !== undefined && turn.stopReason !== 'refusal' ? { text: turn.text } : undefined;
  const calls = (turn.toolCalls ?? []).map(functionCallPart);
  const parts = [thought, text, ...calls].filter((part) => part !== undefined);
  if (turn.reasoning !== undefined) {
    const carrier = calls[0] ?? text ?? thought!;
    carrier.thoughtSignature = scriptedThoughtSignature(turnIndex, turn.reasoning);
  }
  return parts;
}

function usageMetadata(turn: ScriptTurn): WireObject {
  const usage = turn.usage ?? {};
  const cached = usage.cacheRead ?? 0;
  const thoughts = usage.reasoning ?? 0;
  const output = usage.output ?? 0;
  const prompt = (usage.input ?? 0) + cached;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(0, output - thoughts),
    totalTokenCount: prompt + output,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

/** The finish fields of a turn's last candidate. */
function finish(turn: ScriptTurn): WireObject {
  if (turn.stopReason === 'max_tokens') return { finishReason: 'MAX_TOKENS' };
  if (turn.stopReason !== 'refusal') return { finishReason: 'STOP' };
  return {
    finishReason: 'SAFETY',
    ...(turn.text !== undefined ? { finishMessage: turn.text } : {}),
  };
}

function chunk(context: TurnContext, parts: WireObject[], final?: ScriptTurn): WireObject {
  const candidate: WireObject = { content: { role: 'model', parts }, index: 0 };
  if (final !== undefined) Object.assign(candidate, finish(final));
  return {
    candidates: [candidate],
    ...(final !== undefined ? { usageMetadata: usageMetadata(final) } : {}),
    modelVersion: context.model,
    responseId: `resp_${context.turnIndex}`,
  };
}

function deltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

/** A streaming reply: thought, answer text word by word, the calls, then a closing chunk. */
function streamFrames(turn: ScriptTurn, context: TurnContext): string[] {
  const parts = replyParts(turn, context.turnIndex);
  const chunks: WireObject[] = [];
  const closing: WireObject = { text: '' };
  for (const part of parts) {
    if (part.functionCall !== undefined) continue;
    if (part.thought === true || part.thoughtSignature === undefined) {
      const pieces = part.thought === true ? [String(part.text)] : deltas(String(part.text));
      for (const text of pieces) chunks.push(chunk(context, [{ ...part, text }]));
    } else {
      // As the API does, the signature of a streamed answer arrives on an empty closing part.
      for (const text of deltas(String(part.text))) chunks.push(chunk(context, [{ text }]));
      closing.thoughtSignature = part.thoughtSignature;
    }
  }
  const calls = parts.filter((part) => part.functionCall !== undefined);
  if (calls.length > 0) chunks.push(chunk(context, calls));
  chunks.push(chunk(context, [closing], turn));
  return chunks.map((payload) => `data: ${JSON.stringify(payload)}\r\n\r\n`);
}

function partText(part: unknown): string {
  if (typeof part !== 'object' || part === null) return '';
  const fields = part as WireObject;
  if (typeof fields.text === 'string') return fields.text;
  const call = fields.functionCall as WireObject | undefined;
  if (call !== undefined) return `${String(call.name)} ${JSON.stringify(call.args ?? {})}`;
  const response = fields.functionResponse as WireObject | undefined;
  if (response !== undefined) return JSON.stringify(response.response ?? {});
  return '';
}

function contentText(content: unknown): string {
  const parts = (content as WireObject | undefined)?.parts;
  return Array.isArray(parts) ? parts.map(partText).join('') : '';
}

function summarize(path: string, body: unknown): RequestSummary {
  const request = (typeof body === 'object' && body !== null ? body : {}) as WireObject;
  const contents = (Array.isArray(request.contents) ? request.contents : []) as WireObject[];
  const lastUser = [...contents].reverse().find((content) => content.role === 'user');
  const match = PATH.exec(path);
  return {
    model: match?.[1] ?? '',
    stream: match?.[2] === 'streamGenerateContent',
    system: contentText(request.systemInstruction),
    lastMessage: lastUser === undefined ? '' : contentText(lastUser),
    allText: contents.map(contentText).join('\n'),
  };
}

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  422: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The Gemini generateContent protocol handler. */
export const geminiProtocol: ProtocolHandler = {
  protocol: 'gemini',
  accepts: (method, path) => method === 'POST' && PATH.test(path),
  summarize,
  reply: (turn, context) => chunk(context, replyParts(turn, context.turnIndex), turn),
  stream: streamFrames,
  errorBody: (status, message) => ({
    error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' },
  }),
};
