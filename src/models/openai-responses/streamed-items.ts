/**
 * Output items as the stream announced them, for servers whose final `response` leaves some
 * out: Ollama (0.13 to 0.2x) streams text before its tool calls but omits that message from
 * `response.completed`; xAI and ChatGPT sometimes complete with `output: []` after streaming
 * every item. What the model said must stay in the conversation, so the final output is the
 * response's items plus the streamed ones it lacks, in stream order.
 */
import type {
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';

type MessageContent = ResponseOutputMessage['content'][number];

/** An item's identity: its id, or its position when a server sends none. */
function keyOf(item: { id?: unknown }, position: number): string {
  return typeof item.id === 'string' && item.id !== '' ? item.id : `#${position}`;
}

/** Collects the items of one streamed response; `observe` every event, then `complete`. */
export class StreamedItems {
  private readonly order: string[] = [];
  private readonly items = new Map<string, ResponseOutputItem>();
  /** Keys of items whose `response.output_item.done` arrived. */
  private readonly finished = new Set<string>();

  observe(event: ResponseStreamEvent): void {
    switch (event.type) {
      case 'response.output_item.added':
        this.remember(keyOf(event.item, event.output_index), event.item);
        break;
      case 'response.output_item.done': {
        const key = keyOf(event.item, event.output_index);
        this.remember(key, event.item);
        this.finished.add(key);
        break;
      }
      case 'response.output_text.delta':
        this.append(event.item_id, event.content_index, 'output_text', event.delta);
        break;
      case 'response.refusal.delta':
        this.append(event.item_id, event.content_index, 'refusal', event.delta);
        break;
      default:
        break;
    }
  }

  /** The final output: `final`'s items, plus the streamed items it left out, in stream order. */
  complete(final: ResponseOutputItem[]): ResponseOutputItem[] {
    if (this.sameItems(final)) return final;
    const finalByKey = new Map(final.map((item, position) => [keyOf(item, position), item]));
    if (this.order.every((key) => finalByKey.has(key) || !this.worthKeeping(key))) return final;
    const output: ResponseOutputItem[] = [];
    for (const key of this.order) {
      const item =
        finalByKey.get(key) ?? (this.worthKeeping(key) ? this.items.get(key) : undefined);
      if (item !== undefined) output.push(item);
      finalByKey.delete(key);
    }
    return [...output, ...finalByKey.values()];
  }

  /**
   * The usual case, checked without building a map: the final response holds exactly the
   * streamed items, in stream order.
   */
  private sameItems(final: ResponseOutputItem[]): boolean {
    if (final.length !== this.order.length) return false;
    for (let position = 0; position < final.length; position++)
      if (keyOf(final[position]!, position) !== this.order[position]) return false;
    return true;
  }

  private remember(key: string, item: ResponseOutputItem): void {
    if (!this.items.has(key)) this.order.push(key);
    // A message is copied, as the text deltas below grow its content in place; other items
    // are kept as the event carried them (nothing changes them).
    this.items.set(key, item.type === 'message' ? { ...item, content: [...item.content] } : item);
  }

  private append(
    itemId: string,
    contentIndex: number,
    type: 'output_text' | 'refusal',
    delta: string,
  ): void {
    const item = this.items.get(itemId);
    if (item?.type !== 'message') return;
    const current = item.content[contentIndex];
    if (current === undefined || current.type !== type) {
      item.content[contentIndex] = emptyContent(type);
    }
    const content = item.content[contentIndex]!;
    if (content.type === 'output_text') content.text += delta;
    else content.refusal += delta;
  }

  /**
   * A finished item is kept as the server finished it; an unfinished one only when it is a
   * message with streamed text (Ollama never finishes the message it streamed before its
   * calls), since a half-streamed call or reasoning item cannot be sent back.
   */
  private worthKeeping(key: string): boolean {
    if (this.finished.has(key)) return true;
    const item = this.items.get(key);
    return (
      item?.type === 'message' &&
      item.content.some((part) =>
        part.type === 'output_text' ? part.text !== '' : part.refusal !== '',
      )
    );
  }
}

function emptyContent(type: 'output_text' | 'refusal'): MessageContent {
  return type === 'output_text'
    ? { type: 'output_text', text: '', annotations: [] }
    : { type: 'refusal', refusal: '' };
}
