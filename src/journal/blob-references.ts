/**
 * Long strings of an event leave its journal line for content-addressed blobs (`blobs/` beside
 * the journal): a 3 MB agent answer travels in four events (the agent's response and message,
 * the commander's `call_agent` result and message), and is stored once instead of four times,
 * JSON-escaped each. A string that is itself JSON (a tool result such as `{"status":"ok",
 * "result":"…"}`) keeps its small frame in the line and its long strings in blobs, so the
 * answer inside it is the same blob as the agent's own message.
 *
 * The line keeps the event's shape: each moved string is replaced by `BLOB_PLACEHOLDER`, and the
 * envelope key `$blobs` lists where each one was and how to get it back (see docs/decisions.md).
 */
import { createHash } from 'node:crypto';

/** Strings at least this long (UTF-16 code units) are stored as blobs. */
export const BLOB_MIN_CHARS = 32 * 1024;
/** What a moved string reads as in the journal line. */
export const BLOB_PLACEHOLDER = '[blob]';
/** The envelope key listing a line's blob references. */
export const BLOBS_KEY = '$blobs';

/** A key or array index on the way from the event to a moved string. */
export type PathSegment = string | number;

/** The string at `at` is the whole text of blob `sha256` (`bytes` UTF-8 bytes). */
export interface TextBlobReference {
  at: PathSegment[];
  sha256: string;
  bytes: number;
}

/** The string at `at` is `JSON.stringify(json)` once `refs` (relative to `json`) are put back. */
export interface JsonBlobReference {
  at: PathSegment[];
  json: unknown;
  refs: BlobReference[];
}

/** Where a moved string was and how to get it back. */
export type BlobReference = TextBlobReference | JsonBlobReference;

/** A value with its long strings taken out. */
export interface Extracted {
  value: unknown;
  refs: BlobReference[];
  /** The blobs' texts by sha256. */
  blobs: Map<string, string>;
}

/** The sha256 (hex) of a text's UTF-8 bytes: a blob's name. */
export function blobHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Takes every long string out of `value`, copying only what changes. */
export function extractBlobs(value: unknown): Extracted {
  const out: Extracted = { value, refs: [], blobs: new Map() };
  out.value = extract(value, [], out);
  return out;
}

// `path` is one array pushed and popped along the walk; references copy it.
function extract(value: unknown, path: PathSegment[], out: Extracted): unknown {
  if (typeof value === 'string') {
    if (value.length < BLOB_MIN_CHARS) return value;
    out.refs.push(referenceFor(value, [...path], out.blobs));
    return BLOB_PLACEHOLDER;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      const item: unknown = value[index];
      const next = extract(item, path, out);
      path.pop();
      if (next !== item) copy ??= [...value];
      if (copy !== undefined) copy[index] = next;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    path.push(key);
    const next = extract(item, path, out);
    path.pop();
    if (next !== item) {
      copy ??= { ...value };
      copy[key] = next;
    }
  }
  return copy ?? value;
}

function referenceFor(text: string, at: PathSegment[], blobs: Map<string, string>): BlobReference {
  const framed = jsonFrame(text);
  if (framed !== undefined) {
    for (const [sha256, blob] of framed.blobs) blobs.set(sha256, blob);
    return { at, json: framed.value, refs: framed.refs };
  }
  const sha256 = blobHash(text);
  blobs.set(sha256, text);
  return { at, sha256, bytes: Buffer.byteLength(text, 'utf8') };
}

/**
 * A long string that is a JSON object or array, printed as `JSON.stringify` prints it, with
 * long strings inside and a small frame around them: that frame with its own references.
 * Anything else (not JSON, printed differently, nothing long inside, a big frame) is undefined.
 */
function jsonFrame(text: string): Extracted | undefined {
  const first = text.charCodeAt(0);
  if (first !== 0x7b && first !== 0x5b) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  // Integer-like keys reorder and numbers reformat: only an exact round trip can be rebuilt.
  if (JSON.stringify(parsed) !== text) return undefined;
  const inner = extractBlobs(parsed);
  if (inner.refs.length === 0) return undefined;
  if (JSON.stringify(inner.value).length >= BLOB_MIN_CHARS) return undefined;
  return inner;
}
