/** The most of a response body the HTTP tools keep: 5 MB. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

/** A response body read up to a cap. */
export interface CappedBody {
  bytes: Uint8Array;
  /** True when the body went on past the cap and was cut there. */
  truncated: boolean;
}

/**
 * Reads a response body, stopping (and cancelling the rest: leaving the loop ends the
 * iteration, which drops the connection) once `maxBytes` are held, so a huge or endless
 * response never fills memory.
 */
export async function readCappedBody(
  body: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  if (body === null) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let held = 0;
  let truncated = false;
  for await (const value of body) {
    const room = maxBytes - held;
    if (value.byteLength > room) {
      chunks.push(value.subarray(0, room));
      held += room;
      truncated = true;
      break;
    }
    chunks.push(value);
    held += value.byteLength;
  }
  return { bytes: concat(chunks, held), truncated };
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaTypeOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

/** True for JSON media types (`application/json`, `application/problem+json`, ...). */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/**
 * True when the body should be shown as text: text types, JSON, XML, JavaScript, forms, and
 * a missing type (servers that omit it usually send text).
 */
export function isTextualMediaType(mediaType: string): boolean {
  if (mediaType === '' || mediaType.startsWith('text/')) return true;
  if (isJsonMediaType(mediaType) || mediaType.endsWith('+xml')) return true;
  return [
    'application/xml',
    'application/javascript',
    'application/ecmascript',
    'application/x-www-form-urlencoded',
    'application/graphql',
    'application/yaml',
    'application/x-yaml',
    'application/toml',
    'application/x-ndjson',
  ].includes(mediaType);
}

/**
 * The body as the model sees it: parsed JSON for complete JSON bodies, text for textual
 * ones, and a one-line description for binary content (bytes would be noise to a model).
 */
export function bodyForModel(body: CappedBody, mediaType: string): unknown {
  if (!isTextualMediaType(mediaType)) {
    return `<binary body: ${body.bytes.byteLength} bytes of ${mediaType}>`;
  }
  const text = new TextDecoder('utf-8').decode(body.bytes);
  if (isJsonMediaType(mediaType) && !body.truncated && text.trim() !== '') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}
