/** Values and JSON texts shown to a person: pretty, compact, or indented under a label. */
import { truncate } from './columns.ts';

/** JSON text pretty-printed when it parses, as given otherwise. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Malformed arguments are shown exactly as the model sent them.
    return text;
  }
}

/** Any value as indented JSON; a string as itself. */
export function showValue(value: unknown): string {
  if (value === undefined) return '(none)';
  return typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? 'null');
}

/** A value as compact JSON cut to `width` columns (`…` marks the cut). */
export function compactJson(value: unknown, width: number): string {
  return truncate(JSON.stringify(value) ?? 'null', width);
}

/** A JSON value compactly when short, else indented under `indent`. */
export function formatJson(value: unknown, indent: string): string {
  const compact = JSON.stringify(value) ?? 'null';
  if (compact.length <= 100) return compact;
  return indentLines(JSON.stringify(value, null, 2), indent);
}

/** Indents every line after the first. */
export function indentLines(text: string, indent: string): string {
  return text.split('\n').join(`\n${indent}`);
}
