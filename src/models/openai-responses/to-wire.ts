/**
 * Pure conversion of a sortie ModelRequest into an OpenAI Responses API request body
 * (stateless: `store: false`, reasoning carried in encrypted items).
 */
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseInputItem,
  ResponseReasoningItem,
} from 'openai/resources/responses/responses';
import type {
  DocumentPart,
  ImagePart,
  Message,
  ModelRequest,
  ResolvedModel,
  TextPart,
  ToolDefinition,
  ToolResultPart,
} from '../model-types.ts';
import { perObject } from '../../base/per-object.ts';

type InputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; file_data: string; filename: string };

function dataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** One user-side content part in the wire's `input_*` form. */
export function toInputContent(part: TextPart | ImagePart | DocumentPart): InputContent {
  if (part.type === 'text') return { type: 'input_text', text: part.text };
  if (part.type === 'image')
    return { type: 'input_image', image_url: dataUrl(part.mediaType, part.data), detail: 'auto' };
  return {
    type: 'input_file',
    file_data: dataUrl(part.mediaType, part.data),
    filename: part.filename ?? 'document.pdf',
  };
}

function toFunctionCallOutput(part: ToolResultPart): ResponseInputItem {
  const output = typeof part.content === 'string' ? part.content : part.content.map(toInputContent);
  return { type: 'function_call_output', call_id: part.callId, output } as ResponseInputItem;
}

/** The reasoning item exactly as received (id, encrypted_content, summary always present). */
function toReasoningItem(state: Record<string, unknown>): ResponseReasoningItem {
  const item: ResponseReasoningItem = {
    type: 'reasoning',
    id: String(state.id),
    summary: Array.isArray(state.summary)
      ? (state.summary as ResponseReasoningItem['summary'])
      : [],
  };
  if (typeof state.encrypted_content === 'string') item.encrypted_content = state.encrypted_content;
  if (Array.isArray(state.content))
    item.content = state.content as ResponseReasoningItem['content'];
  return item;
}

function userItems(message: Message): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  let content: InputContent[] = [];
  const flush = (): void => {
    if (content.length > 0)
      items.push({ type: 'message', role: 'user', content } as ResponseInputItem);
    content = [];
  };
  for (const part of message.parts) {
    if (part.type === 'tool_result') {
      flush();
      items.push(toFunctionCallOutput(part));
    } else if (part.type === 'text' || part.type === 'image' || part.type === 'document') {
      content.push(toInputContent(part));
    }
  }
  flush();
  return items;
}

type Phase = 'commentary' | 'final_answer';

/** The OpenAI `phase` a text part carries, if any. */
function phaseOf(part: TextPart): Phase | undefined {
  const phase = part.state?.['phase'];
  return phase === 'commentary' || phase === 'final_answer' ? phase : undefined;
}

function assistantItems(message: Message): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const part of message.parts) {
    if (part.type === 'text') {
      const phase = phaseOf(part);
      // The API asks for each assistant message's phase back (dropping it degrades answers).
      items.push({
        type: 'message',
        role: 'assistant',
        content: part.text,
        ...(phase !== undefined ? { phase } : {}),
      });
    } else if (part.type === 'tool_call') {
      items.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: part.arguments,
      });
    } else if (part.type === 'reasoning' && typeof part.state?.id === 'string') {
      // Only reasoning this protocol produced can go back; other providers' state means nothing here.
      if (part.provider === 'openai' || part.provider === 'ollama')
        items.push(toReasoningItem(part.state));
    }
  }
  return items;
}

/** One message's input items, converted once per message object (never changed once sent). */
const messageItems = perObject((message: Message) =>
  message.role === 'user' ? userItems(message) : assistantItems(message),
);

/** Messages as Responses API input items, in conversation order (shared items: never change them). */
export function toInputItems(messages: readonly Message[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of messages) {
    const converted = messageItems(message);
    // Most messages are one item; a push per item avoids a spread's iterator.
    for (let index = 0; index < converted.length; index++) items.push(converted[index]!);
  }
  return items;
}

/** A tool as a function tool with its JSON Schema as-is (non-strict, so any schema is accepted). */
export function toFunctionTool(tool: ToolDefinition): FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    strict: false,
  };
}

/** `toFunctionTool`, once per definition object: an actor offers the same tools every turn. */
const functionTool = perObject(toFunctionTool);

/** The complete streaming request body for a model and request. */
export function toResponsesRequest(
  model: ResolvedModel,
  request: ModelRequest,
): ResponseCreateParamsStreaming {
  const body: ResponseCreateParamsStreaming = {
    model: model.apiName,
    input: toInputItems(request.messages),
    stream: true,
    store: false,
  };
  if (request.system !== '') body.instructions = request.system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map(functionTool);
    if (request.parallelToolCalls === false) body.parallel_tool_calls = false;
  }
  if (request.maxOutputTokens !== undefined) body.max_output_tokens = request.maxOutputTokens;
  if (model.reasoningCapable) {
    // Encrypted reasoning must come back with every response or multi-turn tool use breaks.
    body.include = ['reasoning.encrypted_content'];
    if (request.reasoning !== undefined)
      body.reasoning = { effort: request.reasoning, summary: 'auto' };
  }
  return body;
}
