import type { Scanner } from './scanner.ts';

/**
 * Skipping over text without building nodes: used to step over constructs sortie reports as
 * unsupported (`for` expressions, template directives) and to recover after a syntax error.
 * Strings, interpolations, comments and nested brackets are respected so that a `}` or a
 * newline inside them does not end the skip early.
 */

const closers: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/**
 * Skips past the `close` matching an already consumed opener (or to the end of the text).
 * Iterative, with a stack of expected closers, so deep nesting cannot overflow the call stack.
 */
export function skipBalanced(scanner: Scanner, close: string): void {
  const expectedClosers = [close];
  while (!scanner.atEnd() && expectedClosers.length > 0) {
    if (skipAtom(scanner)) continue;
    const character = scanner.peek();
    scanner.offset++;
    if (character === expectedClosers[expectedClosers.length - 1]) expectedClosers.pop();
    else if (closers[character] !== undefined) expectedClosers.push(closers[character]);
  }
}

/**
 * Skips the rest of a body item: to the first newline or `}` outside brackets (neither is
 * consumed), so that parsing can resume with the next attribute or block.
 */
export function skipToItemEnd(scanner: Scanner): void {
  while (!scanner.atEnd() && !scanner.atNewline() && scanner.peek() !== '}') {
    if (skipAtom(scanner)) continue;
    const character = scanner.peek();
    scanner.offset++;
    const nested = closers[character];
    if (nested !== undefined) skipBalanced(scanner, nested);
  }
}

/** Skips a string or comment at the cursor; false when there is none. */
function skipAtom(scanner: Scanner): boolean {
  if (scanner.peek() === '"') {
    scanner.offset++;
    skipQuotedRest(scanner);
    return true;
  }
  if (scanner.peek() === '#' || scanner.startsWith('//')) {
    while (!scanner.atEnd() && !scanner.atNewline()) scanner.offset++;
    return true;
  }
  if (scanner.startsWith('/*')) {
    const end = scanner.text.indexOf('*/', scanner.offset + 2);
    scanner.offset = end < 0 ? scanner.text.length : end + 2;
    return true;
  }
  return false;
}

/** Skips the rest of a quoted string whose opening quote was consumed; stops at a newline. */
function skipQuotedRest(scanner: Scanner): void {
  while (!scanner.atEnd() && !scanner.atNewline()) {
    if (scanner.peek() === '\\') {
      scanner.offset += 2;
    } else if (scanner.startsWith('$${') || scanner.startsWith('%%{')) {
      scanner.offset += 3;
    } else if (scanner.startsWith('${') || scanner.startsWith('%{')) {
      scanner.offset += 2;
      skipBalanced(scanner, '}');
    } else if (scanner.peek() === '"') {
      scanner.offset++;
      return;
    } else {
      scanner.offset++;
    }
  }
}
