/** The OpenAI Responses API (`POST /v1/responses`) for the scripted model server. */
import type { ProtocolHandler, RequestSummary } from '../protocol.ts';
import { finalStatus, outputItems, responseObject } from './openai-output.ts';
import { openaiStreamFrames } from './openai-stream.ts';

type WireInputItem = Record<string, unknown>;

/** Text of one input item: message content, tool output, or a call's arguments. */
function itemText(item: WireInputItem): string {
  if (item.type === 'function_call_output') {
    const output = item.output;
    if (typeof output === 'string') return output;
    return Array.isArray(output)
      ? output.map((part: WireInputItem) => String(part.text ?? '')).join('')
      : '';
  }
  if (item.type === 'function_call') return `${String(item.name)} ${String(item.arguments)}`;
  const content = item.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part: WireInputItem) => typeof part.text === 'string')
    .map((part: WireInputItem) => part.text as string)
    .join('');
}

/** Items of the latest user turn: trailing user messages and tool outputs. */
function lastUserTurn(items: WireInputItem[]): WireInputItem[] {
  let start = items.length;
  while (start > 0) {
    const item = items[start - 1]!;
    const isUserSide =
      item.type === 'function_call_output' ||
      (item.role === 'user' && item.type !== 'function_call');
    if (!isUserSide) break;
    start--;
  }
  return items.slice(start);
}

function inputItems(input: unknown): WireInputItem[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? (input as WireInputItem[]) : [];
}

function summarize(_path: string, body: unknown): RequestSummary {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  const items = inputItems(request.input);
  return {
    model: typeof request.model === 'string' ? request.model : '',
    stream: request.stream === true,
    system: typeof request.instructions === 'string' ? request.instructions : '',
    lastMessage: lastUserTurn(items).map(itemText).join('\n'),
    allText: items.map(itemText).join('\n'),
  };
}

const ERROR_TYPES: Readonly<Record<number, string>> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

/** The OpenAI Responses protocol handler. */
export const openaiProtocol: ProtocolHandler = {
  protocol: 'openai',
  accepts: (method, path) => method === 'POST' && path.endsWith('/responses'),
  summarize,
  reply: (turn, context) => {
    const output = outputItems(turn, context.turnIndex);
    const response = responseObject(turn, context, finalStatus(turn), output);
    return { ...response, output_text: turn.text ?? '' };
  },
  stream: openaiStreamFrames,
  errorBody: (status, message) => ({
    error: { message, type: ERROR_TYPES[status] ?? 'server_error', param: null, code: null },
  }),
};
