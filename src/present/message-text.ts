/**
 * Conversations as text: a message's parts, and the one-line forms of a tool call and its
 * result that the plain log, the Events tab and the detail pane all use.
 */
import type { Message, Part } from '../base/conversation.ts';
import { escapeControlCharacters } from '../base/control-characters.ts';
import { firstLine, oneLine } from './columns.ts';
import { EXCERPT } from './event-forms.ts';
import { compactJson } from './json-text.ts';
import { noPaint, type Painter } from './paint.ts';

/**
 * Tool arguments shortened: a single argument shows its value (`https://…`), several show
 * compact JSON; either way cut to `width` columns.
 */
export function argumentsText(text: string, width = EXCERPT): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return firstLine(text, width);
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    const values = Object.values(parsed);
    if (values.length === 0) return '';
    if (values.length === 1) {
      const [only] = values;
      // Decoded from JSON text, the value may hold control characters its escapes spelt.
      return typeof only === 'string'
        ? firstLine(escapeControlCharacters(only), width)
        : compactJson(only, width);
    }
  }
  return compactJson(parsed, width);
}

/** `→ builtins_http_get https://…`. */
export function toolCallText(tool: string, argumentsJson: string, width = EXCERPT): string {
  return `→ ${tool} ${argumentsText(argumentsJson, width)}`.trimEnd();
}

/** `← tool: result` or, for an error, `✗ tool: result`. */
export function toolResultText(
  tool: string,
  result: string,
  isError: boolean,
  paint: Painter = noPaint,
  width = EXCERPT,
): string {
  const mark = isError ? paint('bad', '✗') : '←';
  return `${mark} ${tool}: ${oneLine(result, width)}`;
}

function resultContent(content: Extract<Part, { type: 'tool_result' }>['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : `[${part.type}]`)).join(' ');
}

/** A part as text: text in full, tool calls and results on one line each. */
export function partText(part: Part, width: number): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return `(reasoning) ${part.text}`;
    case 'tool_call':
      return toolCallText(part.name, part.arguments, width);
    case 'tool_result':
      return toolResultText(part.name, resultContent(part.content), part.isError, noPaint, width);
    case 'image':
      return `[image ${part.mediaType}]`;
    case 'document':
      return `[document ${part.filename ?? part.mediaType}]`;
  }
}

/** A message's parts, one after another (`width` bounds tool call and result lines). */
export function messageText(message: Message, width = 200): string {
  return message.parts.map((part) => partText(part, width)).join('\n');
}
