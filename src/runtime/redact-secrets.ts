/**
 * The event bus's usual redaction hook: replaces every occurrence of a secret value (secrets,
 * protected inputs) in every string of an event, however deeply nested, with `[redacted]`.
 */
import { REDACTED } from '../models/redact-key.ts';
import type { MissionEvent } from '../base/events.ts';

/** Builds a redactor for these secret values; empty values are ignored. */
export function redactSecrets(secrets: Iterable<string>): (event: MissionEvent) => MissionEvent {
  // Longest first, so a secret that contains another is removed whole.
  const values = [...new Set(secrets)]
    .filter((value) => value.length > 0)
    .sort((left, right) => right.length - left.length);
  if (values.length === 0) return (event) => event;
  const redactText = (text: string): string =>
    values.reduce((current, secret) => current.split(secret).join(REDACTED), text);
  return (event) => redactValue(event, redactText) as MissionEvent;
}

/** Copies a JSON-like value, rewriting strings; unchanged subtrees are shared, not copied. */
function redactValue(value: unknown, redactText: (text: string) => string): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) {
    const items = value.map((item) => redactValue(item, redactText));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const redacted = redactValue(item, redactText);
      if (redacted !== item) changed = true;
      copy[key] = redacted;
    }
    return changed ? copy : value;
  }
  return value;
}
