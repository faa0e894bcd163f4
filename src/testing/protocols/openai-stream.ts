/** The SSE event sequence of a streamed OpenAI Responses API reply. */
import type { TurnContext } from '../protocol.ts';
import type { ScriptTurn } from '../script.ts';
import { finalStatus, outputItems, responseObject, type WireItem } from './openai-output.ts';

/** Splits text into word-sized deltas, as the API streams it. */
export function textDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text === '' ? [] : [text]);
}

/** A streaming reply as complete SSE frames (`event:` + `data:` + blank line). */
export function openaiStreamFrames(turn: ScriptTurn, context: TurnContext): string[] {
  const events: Array<Record<string, unknown>> = [];
  const emit = (type: string, fields: Record<string, unknown>): void => {
    events.push({ type, ...fields, sequence_number: events.length });
  };
  emit('response.created', { response: responseObject(turn, context, 'in_progress', []) });
  emit('response.in_progress', { response: responseObject(turn, context, 'in_progress', []) });
  const items = outputItems(turn, context.turnIndex);
  items.forEach((item, outputIndex) => emitItem(emit, item, outputIndex));
  const status = finalStatus(turn);
  const finalType = status === 'completed' ? 'response.completed' : 'response.incomplete';
  emit(finalType, { response: responseObject(turn, context, status, items) });
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

type Emit = (type: string, fields: Record<string, unknown>) => void;

function emitItem(emit: Emit, item: WireItem, outputIndex: number): void {
  if (item.type === 'message') {
    emitMessage(emit, item, outputIndex);
  } else if (item.type === 'function_call') {
    const argumentsText = String(item.arguments);
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: { ...item, arguments: '', status: 'in_progress' },
    });
    emit('response.function_call_arguments.delta', {
      item_id: item.id,
      output_index: outputIndex,
      delta: argumentsText,
    });
    emit('response.function_call_arguments.done', {
      item_id: item.id,
      output_index: outputIndex,
      arguments: argumentsText,
    });
    emit('response.output_item.done', { output_index: outputIndex, item });
  } else {
    emit('response.output_item.added', {
      output_index: outputIndex,
      item: { ...item, summary: [] },
    });
    emit('response.output_item.done', { output_index: outputIndex, item });
  }
}

type MessageContent = { type: 'output_text'; text: string } | { type: 'refusal'; refusal: string };

function emitMessage(emit: Emit, item: WireItem, outputIndex: number): void {
  const content = (item.content as MessageContent[])[0]!;
  const ids = { item_id: item.id, output_index: outputIndex, content_index: 0 };
  emit('response.output_item.added', {
    output_index: outputIndex,
    item: { ...item, status: 'in_progress', content: [] },
  });
  if (content.type === 'refusal') {
    emit('response.content_part.added', { ...ids, part: { type: 'refusal', refusal: '' } });
    for (const delta of textDeltas(content.refusal))
      emit('response.refusal.delta', { ...ids, delta });
    emit('response.refusal.done', { ...ids, refusal: content.refusal });
  } else {
    const emptyPart = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    emit('response.content_part.added', { ...ids, part: emptyPart });
    for (const delta of textDeltas(content.text))
      emit('response.output_text.delta', { ...ids, delta, logprobs: [] });
    emit('response.output_text.done', { ...ids, text: content.text, logprobs: [] });
  }
  emit('response.content_part.done', { ...ids, part: content });
  emit('response.output_item.done', { output_index: outputIndex, item });
}
