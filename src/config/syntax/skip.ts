import type { Scanner } from './scanner.ts';

/**
 * Skipping over text without building nodes: used to step over constructs sortie reports as
 * unsupported (`for` expressions, template directives) and to recover after a syntax error.
 * Strings, interpolations, comments, heredocs and nested brackets are respected so that a `}`
 * or a newline inside them does not end the skip early. One loop with an explicit stack of
 * what is open, so no nesting depth can overflow the call stack.
 */

const closers: Readonly<Record<string, string>> = { '(': ')', '[': ']', '{': '}' };
/** On the stack: inside a quoted string (brackets push their closer, `${` pushes `}`). */
const IN_STRING = '"';
/** Characters that end a run of plain text inside a quoted string. */
const STRING_SPECIALS = /["\\$%\n]/g;

/**
 * Skips past the `close` matching an already consumed opener (or to the end of the text).
 * A `}` that closes nothing opened here ends the skip before it: the opener was never
 * closed, and that `}` most likely closes the enclosing block.
 */
export function skipBalanced(scanner: Scanner, close: string): void {
  skip(scanner, [close], false);
}

/**
 * Skips the rest of a body item: to the first newline or `}` outside brackets (neither is
 * consumed), so that parsing can resume with the next attribute or block. Brackets left
 * open end at a `}` that closes none of them (the enclosing block's).
 */
export function skipToItemEnd(scanner: Scanner): void {
  skip(scanner, [], true);
}

function skip(scanner: Scanner, open: string[], untilItemEnd: boolean): void {
  while (!scanner.atEnd()) {
    if (open.length === 0) {
      if (!untilItemEnd || scanner.atNewline() || scanner.peek() === '}') return;
    }
    if (open[open.length - 1] === IN_STRING) {
      stepInString(scanner, open);
      continue;
    }
    if (skipCommentOrHeredoc(scanner)) continue;
    const character = scanner.peek();
    const closer = closers[character];
    if (character === '"' || closer !== undefined) {
      open.push(closer ?? IN_STRING);
      scanner.offset++;
      continue;
    }
    if (character === ')' || character === ']' || character === '}') {
      const match = open.lastIndexOf(character);
      if (match >= 0) open.length = match;
      else if (character === '}') return;
    }
    scanner.offset++;
  }
}

/** One step inside a quoted string; an unterminated string ends at its line's end. */
function stepInString(scanner: Scanner, open: string[]): void {
  if (scanner.atNewline()) {
    open.pop();
  } else if (scanner.peek() === '\\') {
    scanner.offset += 2;
  } else if (scanner.startsWith('$${') || scanner.startsWith('%%{')) {
    scanner.offset += 3;
  } else if (scanner.startsWith('${') || scanner.startsWith('%{')) {
    scanner.offset += 2;
    open.push('}');
  } else if (scanner.peek() === '"') {
    scanner.offset++;
    open.pop();
  } else {
    STRING_SPECIALS.lastIndex = scanner.offset + 1;
    scanner.offset = STRING_SPECIALS.exec(scanner.text)?.index ?? scanner.text.length;
  }
}

/** Skips a comment or a heredoc at the cursor; false when there is none. */
function skipCommentOrHeredoc(scanner: Scanner): boolean {
  if (scanner.peek() === '#' || scanner.startsWith('//')) {
    const newline = scanner.text.indexOf('\n', scanner.offset);
    scanner.offset = newline < 0 ? scanner.text.length : newline;
    if (scanner.text[scanner.offset - 1] === '\r') scanner.offset--;
    return true;
  }
  if (scanner.startsWith('/*')) {
    const end = scanner.text.indexOf('*/', scanner.offset + 2);
    scanner.offset = end < 0 ? scanner.text.length : end + 2;
    return true;
  }
  return scanner.startsWith('<<') && skipHeredoc(scanner);
}

/** `<<EOT` or `<<-EOT` and a newline: skips to the end of the closing marker's line. */
function skipHeredoc(scanner: Scanner): boolean {
  const start = scanner.offset;
  scanner.offset += scanner.peek(2) === '-' ? 3 : 2;
  const marker = scanner.readIdentifier();
  if (marker === undefined || !scanner.atNewline()) {
    scanner.offset = start;
    return false;
  }
  const closing = new RegExp(`\\n[ \\t]*${marker}[ \\t]*(?=\\r?\\n|$)`, 'g');
  closing.lastIndex = scanner.offset;
  const found = closing.exec(scanner.text);
  scanner.offset = found === null ? scanner.text.length : found.index + found[0].length;
  return true;
}
