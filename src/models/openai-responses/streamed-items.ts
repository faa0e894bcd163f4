/**
 * Output items as the stream announced them, for servers whose final `response` leaves some
 * out: Ollama (0.13 to 0.2x) streams text before its tool calls but omits that message from
 * `response.completed`; xAI and ChatGPT sometimes complete with `output: []` after streaming
 * every item. What the model said must stay in the conversation, so the final output is the
 * response's items plus the streamed ones it lacks, in stream order. Items are matched by
 * output position, since gateways change an item's id between events.
 */
import type {
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';

type MessageContent = ResponseOutputMessage['content'][number];

/** One streamed item: where the stream put it, and every id the stream gave it. */
interface StreamedEntry {
  outputIndex: number;
  type: ResponseOutputItem['type'];
  item: ResponseOutputItem;
  ids: Set<string>;
  /** Its `response.output_item.done` arrived. */
  finished: boolean;
}

/**
 * An item is known by its output position and type, not by id: OpenAI-compatible gateways
 * give one item a new id in each event, and the final output yet another. The type is part
 * of the key because Ollama streams its text and then its calls all at `output_index` 0.
 */
function keyOf(outputIndex: number, type: string): string {
  return `${outputIndex}:${type}`;
}

function idOf(item: { id?: unknown }): string | undefined {
  return typeof item.id === 'string' && item.id !== '' ? item.id : undefined;
}

/** Collects the items of one streamed response; `observe` every event, then `complete`. */
export class StreamedItems {
  private readonly entries: StreamedEntry[] = [];
  private readonly byKey = new Map<string, StreamedEntry>();

  observe(event: ResponseStreamEvent): void {
    switch (event.type) {
      case 'response.output_item.added':
        this.remember(event.output_index, event.item, false);
        break;
      case 'response.output_item.done':
        this.remember(event.output_index, event.item, true);
        break;
      case 'response.output_text.delta':
        this.append(event.output_index, event.content_index, 'output_text', event.delta);
        break;
      case 'response.refusal.delta':
        this.append(event.output_index, event.content_index, 'refusal', event.delta);
        break;
      default:
        break;
    }
  }

  /** The final output: `final`'s items, plus the streamed items it left out, in stream order. */
  complete(final: ResponseOutputItem[]): ResponseOutputItem[] {
    if (this.sameItems(final)) return final;
    const used = new Set<number>();
    const output: ResponseOutputItem[] = [];
    for (const entry of this.entries) {
      const position = matchIn(final, entry, used);
      if (position !== undefined) {
        used.add(position);
        output.push(final[position]!);
      } else if (worthKeeping(entry)) output.push(entry.item);
    }
    if (used.size === final.length && output.length === final.length) return final;
    return [...output, ...final.filter((_item, position) => !used.has(position))];
  }

  /**
   * The usual case, checked without building a map: the final response holds exactly the
   * streamed items, in stream order, each at the position the stream gave it.
   */
  private sameItems(final: ResponseOutputItem[]): boolean {
    if (final.length !== this.entries.length) return false;
    for (let position = 0; position < final.length; position++) {
      const entry = this.entries[position]!;
      if (entry.outputIndex !== position || entry.type !== final[position]!.type) return false;
    }
    return true;
  }

  private remember(outputIndex: number, item: ResponseOutputItem, finished: boolean): void {
    const key = keyOf(outputIndex, item.type);
    let entry = this.byKey.get(key);
    if (entry === undefined) {
      entry = { outputIndex, type: item.type, item, ids: new Set(), finished };
      this.entries.push(entry);
      this.byKey.set(key, entry);
    }
    // A message is copied, as the text deltas below grow its content in place; other items
    // are kept as the event carried them (nothing changes them).
    entry.item = item.type === 'message' ? { ...item, content: [...item.content] } : item;
    entry.finished ||= finished;
    const id = idOf(item);
    if (id !== undefined) entry.ids.add(id);
  }

  private append(
    outputIndex: number,
    contentIndex: number,
    type: 'output_text' | 'refusal',
    delta: string,
  ): void {
    const item = this.byKey.get(keyOf(outputIndex, 'message'))?.item;
    if (item?.type !== 'message') return;
    const current = item.content[contentIndex];
    if (current === undefined || current.type !== type) {
      item.content[contentIndex] = emptyContent(type);
    }
    const content = item.content[contentIndex]!;
    if (content.type === 'output_text') content.text += delta;
    else content.refusal += delta;
  }
}

/**
 * Where `final` holds a streamed item: at its output position when the type agrees there,
 * else under one of the ids the stream gave it (a server whose final positions shift).
 */
function matchIn(
  final: ResponseOutputItem[],
  entry: StreamedEntry,
  used: ReadonlySet<number>,
): number | undefined {
  const atPosition = final[entry.outputIndex];
  if (atPosition?.type === entry.type && !used.has(entry.outputIndex)) return entry.outputIndex;
  const position = final.findIndex((item, index) => {
    const id = idOf(item);
    return !used.has(index) && id !== undefined && entry.ids.has(id);
  });
  return position === -1 ? undefined : position;
}

/**
 * A finished item is kept as the server finished it; an unfinished one only when it is a
 * message with streamed text (Ollama never finishes the message it streamed before its
 * calls), since a half-streamed call or reasoning item cannot be sent back.
 */
function worthKeeping(entry: StreamedEntry): boolean {
  if (entry.finished) return true;
  const item = entry.item;
  return (
    item.type === 'message' &&
    item.content.some((part) =>
      part.type === 'output_text' ? part.text !== '' : part.refusal !== '',
    )
  );
}

function emptyContent(type: 'output_text' | 'refusal'): MessageContent {
  return type === 'output_text'
    ? { type: 'output_text', text: '', annotations: [] }
    : { type: 'refusal', refusal: '' };
}
