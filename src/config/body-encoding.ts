/**
 * How a custom HTTP tool sends its `body` (`content_type`, as in the reference runtime):
 * `json` — the body as JSON (`application/json`), the default; `form` — an object of scalars,
 * URL-encoded (`application/x-www-form-urlencoded`); `text` — a string as it is (`text/plain`).
 */
export const BODY_ENCODINGS = ['json', 'form', 'text'] as const;

export type BodyEncoding = (typeof BODY_ENCODINGS)[number];

/** `"json", "form" or "text"`, for messages. */
export const BODY_ENCODING_LIST = '"json", "form" or "text"';

export function isBodyEncoding(value: string): value is BodyEncoding {
  return (BODY_ENCODINGS as readonly string[]).includes(value);
}
