import { setOwn } from './own-property.ts';

/** What replaces a secret value in any output. */
export const REDACTED = '••••';

/**
 * Secret values shorter than this are not redacted: replacing every "a" or "42" in every
 * output would mangle text without protecting anything (a real key is far longer).
 */
export const MIN_REDACTED_LENGTH = 4;

/**
 * A function that replaces every known secret value in a text with `••••`. `plainInJson`: no
 * secret has a character JSON escapes, so a secret shows up the same inside JSON text at any
 * depth of nesting (checking an event's JSON text once is then as good as every string).
 * `redactsNothing`: there is no secret at all, so every text comes back as it is and callers
 * may skip the work of offering it (a run without secrets, keys or protected inputs).
 */
export type Redactor = ((text: string) => string) & {
  readonly plainInJson?: boolean;
  readonly redactsNothing?: boolean;
};

/** Builds a redactor for the given secret values (longest first, so overlapping secrets are fully hidden). */
export function createRedactor(secretValues: Iterable<string>): Redactor {
  const secrets = [...new Set(secretValues)]
    .filter((value) => value.length >= MIN_REDACTED_LENGTH)
    .sort((a, b) => b.length - a.length);
  const plainInJson = secrets.every((secret) => JSON.stringify(secret) === `"${secret}"`);
  if (secrets.length === 0) {
    return Object.assign((text: string) => text, { plainInJson, redactsNothing: true });
  }
  const pattern = new RegExp(secrets.map(escapeRegExp).join('|'), 'g');
  return Object.assign((text: string) => text.replace(pattern, REDACTED), { plainInJson });
}

/** Applies a redactor to every string (keys included) inside a JSON value; returns a new value. */
export function redactDeep<T>(value: T, redact: Redactor): T {
  return redactValue(value, redact) as T;
}

function redactValue(value: unknown, redact: Redactor): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, redact));
  if (value !== null && typeof value === 'object') {
    const result: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      setOwn(result, redact(key), redactValue(item, redact));
    }
    return result;
  }
  return value;
}

/** The text as a regular expression matching it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
