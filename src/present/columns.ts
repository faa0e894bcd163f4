/** Plain-text layout helpers: wrapping, padding and truncation to terminal columns. */

/** Splits text into lines of at most `width` characters (hard wrap, newlines kept). */
export function wrapLines(text: string, width: number): string[] {
  const size = Math.max(1, width);
  const lines: string[] = [];
  for (const raw of text.replace(/\t/g, '  ').split('\n')) {
    if (raw.length === 0) lines.push('');
    for (let at = 0; at < raw.length; at += size) lines.push(raw.slice(at, at + size));
  }
  return lines;
}

/** Cuts text to `width` characters, marking the cut with `…`. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Pads (or cuts) to exactly `width` characters, left-aligned. */
export function padEnd(text: string, width: number): string {
  return truncate(text, width).padEnd(width);
}

/** Pads (or cuts) to exactly `width` characters, right-aligned. */
export function padStart(text: string, width: number): string {
  return truncate(text, width).padStart(width);
}

/** JSON text pretty-printed when it parses, as given otherwise. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Malformed arguments are shown exactly as the model sent them.
    return text;
  }
}

/** Any value as indented JSON. */
export function showValue(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null');
}
