/**
 * The Anthropic Messages API (`POST /v1/messages`) for the scripted model server: JSON replies
 * and SSE streams shaped like the real API (every frame has its `event:` line, which the SDK
 * needs), thinking blocks with generated signatures, and Anthropic's error body.
 */
import type { ProtocolHandler, RequestSummary, TurnContext } from '../protocol.ts';
import type { ScriptTurn } from '../script.ts';

type WireBlock = Record<string, unknown> & { type: string };
type WireObject = Record<string, unknown>;

/** The signature the server generates for a turn's thinking block (stable per turn). */
export function scriptedThinkingSignature(turnIndex: number, reasoning: string): string {
  return `sig_${Buffer.from(`sortie-scripted:${turnIndex}:${reasoning}`).toString('base64')}`;
}

/** The generated tool-use id of the `position`-th tool call of a turn, unless the script set one. */
export function scriptedToolUseId(turnIndex: number, position: number): string {
  return `toolu_${turnIndex}_${position}`;
}

function argumentsText(argumentsValue: Record<string, unknown> | string): string {
  return typeof argumentsValue === 'string' ? argumentsValue : JSON.stringify(argumentsValue);
}

/** The content blocks of a turn, complete, in the order the API emits them. */
function contentBlocks(turn: ScriptTurn, turnIndex: number): WireBlock[] {
  const blocks: WireBlock[] = [];
  if (turn.reasoning !== undefined) {
    const signature = scriptedThinkingSignature(turnIndex, turn.reasoning);
    blocks.push({ type: 'thinking', thinking: turn.reasoning, signature });
  }
  // A refusal's text is its explanation (stop_details), not a content block.
  if (turn.text !== undefined && turn.stopReason !== 'refusal')
    blocks.push({ type: 'text', text: turn.text });
  (turn.toolCalls ?? []).forEach((call, position) => {
    const text = argumentsText(call.arguments);
    let input: unknown;
    try {
      input = JSON.parse(text);
    } catch {
      // Malformed arguments cannot be an object in a JSON reply; the raw text stands in.
      input = text;
    }
    blocks.push({
      type: 'tool_use',
      id: call.id ?? scriptedToolUseId(turnIndex, position),
      name: call.name,
      input,
    });
  });
  return blocks;
}

function stopReason(turn: ScriptTurn): string {
  const reason = turn.stopReason ?? ((turn.toolCalls ?? []).length > 0 ? 'tool_use' : 'end');
  return reason === 'end' ? 'end_turn' : reason;
}

/** `stop_details` as the API sends it with a refusal, else null. */
function stopDetails(turn: ScriptTurn): WireObject | null {
  if (turn.stopReason !== 'refusal') return null;
  return { type: 'refusal', category: null, explanation: turn.text ?? null };
}

function usage(turn: ScriptTurn): WireObject {
  const scripted = turn.usage ?? {};
  return {
    input_tokens: scripted.input ?? 0,
    output_tokens: scripted.output ?? 0,
    cache_read_input_tokens: scripted.cacheRead ?? 0,
    cache_creation_input_tokens: scripted.cacheWrite ?? 0,
  };
}

function message(
  turn: ScriptTurn,
  context: TurnContext,
  content: WireBlock[],
  finished: boolean,
): WireObject {
  return {
    id: `msg_${context.turnIndex}`,
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: finished ? stopReason(turn) : null,
    stop_sequence: null,
    stop_details: finished ? stopDetails(turn) : null,
    usage: finished ? usage(turn) : { ...usage(turn), output_tokens: 1 },
  };
}

/** Splits text into word-sized deltas, as the API streams it. */
function deltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

function frame(event: WireObject & { type: string }): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

function blockEvents(
  block: WireBlock,
  index: number,
  turn: ScriptTurn,
  position: number,
): WireObject[] {
  const delta = (payload: WireObject): WireObject => ({
    type: 'content_block_delta',
    index,
    delta: payload,
  });
  const events: WireObject[] = [];
  if (block.type === 'thinking') {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    for (const text of deltas(String(block.thinking)))
      events.push(delta({ type: 'thinking_delta', thinking: text }));
    events.push(delta({ type: 'signature_delta', signature: block.signature }));
  } else if (block.type === 'text') {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const text of deltas(String(block.text))) events.push(delta({ type: 'text_delta', text }));
  } else {
    events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
    // The raw text, verbatim, so malformed scripted arguments reach the client unchanged.
    const raw = argumentsText(turn.toolCalls![position]!.arguments);
    const half = Math.ceil(raw.length / 2);
    for (const part of [raw.slice(0, half), raw.slice(half)]) {
      if (part !== '') events.push(delta({ type: 'input_json_delta', partial_json: part }));
    }
  }
  events.push({ type: 'content_block_stop', index });
  return events;
}

/** A streaming reply as complete SSE frames. */
function streamFrames(turn: ScriptTurn, context: TurnContext): string[] {
  const blocks = contentBlocks(turn, context.turnIndex);
  const events: WireObject[] = [
    { type: 'message_start', message: message(turn, context, [], false) },
    { type: 'ping' },
  ];
  let toolPosition = 0;
  blocks.forEach((block, index) => {
    const position = block.type === 'tool_use' ? toolPosition++ : -1;
    events.push(...blockEvents(block, index, turn, position));
  });
  events.push({
    type: 'message_delta',
    delta: { stop_reason: stopReason(turn), stop_sequence: null, stop_details: stopDetails(turn) },
    usage: usage(turn),
  });
  events.push({ type: 'message_stop' });
  return events.map((event) => frame(event as WireObject & { type: string }));
}

function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (typeof block !== 'object' || block === null) return '';
  const fields = block as WireObject;
  if (typeof fields.text === 'string') return fields.text;
  if (typeof fields.thinking === 'string') return fields.thinking;
  if (fields.type === 'tool_use') return `${String(fields.name)} ${JSON.stringify(fields.input)}`;
  if (fields.type === 'tool_result') return contentText(fields.content);
  return '';
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map(blockText).join('') : '';
}

function summarize(_path: string, body: unknown): RequestSummary {
  const request = (typeof body === 'object' && body !== null ? body : {}) as WireObject;
  const messages = (Array.isArray(request.messages) ? request.messages : []) as WireObject[];
  const lastUser = [...messages].reverse().find((entry) => entry.role === 'user');
  return {
    model: typeof request.model === 'string' ? request.model : '',
    stream: request.stream === true,
    system: contentText(request.system),
    lastMessage: lastUser === undefined ? '' : contentText(lastUser.content),
    allText: messages.map((entry) => contentText(entry.content)).join('\n'),
  };
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};

/** The Anthropic Messages protocol handler. */
export const anthropicProtocol: ProtocolHandler = {
  protocol: 'anthropic',
  accepts: (method, path) => method === 'POST' && path.endsWith('/v1/messages'),
  summarize,
  reply: (turn, context) => message(turn, context, contentBlocks(turn, context.turnIndex), true),
  stream: streamFrames,
  errorBody: (status, errorMessage) => ({
    type: 'error',
    error: { type: ERROR_TYPES[status] ?? 'api_error', message: errorMessage },
  }),
};
