/**
 * Puts a journal line's long strings back (see blob-references.ts), lazily: every reference is
 * checked when the line is read (its blob exists with its byte count), but a blob's text is
 * read only when its string is first used. A resume touches the conversations it continues,
 * not the megabytes of every finished item; `show` touches outputs and summaries only.
 */
import {
  BLOB_PLACEHOLDER,
  BLOBS_KEY,
  type JsonBlobReference,
  type PathSegment,
  type TextBlobReference,
} from './blob-references.ts';
import { setOwn } from '../base/own-property.ts';

/** A `$blobs` list that does not fit its line, or a blob that is not there (the message says). */
export class BlobReferenceError extends Error {}

/** Where blob texts come from. */
export interface BlobSource {
  /** Resolves when blob `sha256` exists with `bytes` bytes; else rejects with BlobReferenceError. */
  check(sha256: string, bytes: number): Promise<void>;
  /** The blob's text, read now (throws BlobReferenceError). */
  readNow(sha256: string, bytes: number): string;
}

/** How a string is got back, once checked. */
type Attachment =
  | { container: object; key: PathSegment; sha256: string; bytes: number }
  | { container: object; key: PathSegment; json: unknown; inner: Attachment[] };

/**
 * Checks `refs` against `value` and its blobs, then makes each referenced string of `value` a
 * property that reads its blob on first use. `failure` turns a blob that went missing since
 * into the error the caller reports.
 */
export async function attachBlobs(
  value: unknown,
  refs: unknown,
  source: BlobSource,
  failure: (error: BlobReferenceError) => Error,
): Promise<void> {
  const attachments = plan(value, refs);
  const blobs = new Map<string, number>();
  collectBlobs(attachments, blobs);
  for (const [sha256, bytes] of blobs) await source.check(sha256, bytes);
  for (const attachment of attachments) attach(attachment, source, failure);
}

function plan(value: unknown, refs: unknown): Attachment[] {
  if (!Array.isArray(refs)) throw new BlobReferenceError(`"${BLOBS_KEY}" is not a list`);
  return (refs as unknown[]).map((ref) => {
    const { container, key } = placeholderOf(value, pathOf(ref));
    const fields = ref as Partial<TextBlobReference & JsonBlobReference>;
    if (typeof fields.sha256 === 'string' && typeof fields.bytes === 'number') {
      return { container, key, sha256: fields.sha256, bytes: fields.bytes };
    }
    if ('json' in fields) {
      return { container, key, json: fields.json, inner: plan(fields.json, fields.refs) };
    }
    throw new BlobReferenceError('a blob reference names neither a blob nor a JSON frame');
  });
}

function collectBlobs(attachments: Attachment[], blobs: Map<string, number>): void {
  for (const attachment of attachments) {
    if ('sha256' in attachment) blobs.set(attachment.sha256, attachment.bytes);
    else collectBlobs(attachment.inner, blobs);
  }
}

function attach(
  attachment: Attachment,
  source: BlobSource,
  failure: (error: BlobReferenceError) => Error,
): void {
  if ('sha256' in attachment) {
    const { sha256, bytes } = attachment;
    defineLazy(attachment.container, attachment.key, () => {
      try {
        return source.readNow(sha256, bytes);
      } catch (error) {
        throw error instanceof BlobReferenceError ? failure(error) : error;
      }
    });
    return;
  }
  // The frame's own long strings are lazy too: printing the frame reads them.
  for (const inner of attachment.inner) attach(inner, source, failure);
  const { json } = attachment;
  defineLazy(attachment.container, attachment.key, () => JSON.stringify(json));
}

/** A property that computes its string on first read and is a plain value from then on. */
function defineLazy(container: object, key: PathSegment, compute: () => string): void {
  const settle = (value: unknown): void => {
    setOwn(container, key, value);
  };
  Object.defineProperty(container, key, {
    enumerable: true,
    configurable: true,
    get() {
      const value = compute();
      settle(value);
      return value;
    },
    set: settle,
  });
}

function pathOf(ref: unknown): PathSegment[] {
  const at = (ref as { at?: unknown } | null)?.at;
  if (
    Array.isArray(at) &&
    at.length > 0 &&
    at.every((segment) => typeof segment === 'string' || typeof segment === 'number')
  ) {
    return at as PathSegment[];
  }
  throw new BlobReferenceError('a blob reference has no path');
}

function placeholderOf(root: unknown, at: PathSegment[]): { container: object; key: PathSegment } {
  let container: unknown = root;
  for (const segment of at.slice(0, -1)) container = childOf(container, segment);
  const key = at.at(-1) as PathSegment;
  if (childOf(container, key) !== BLOB_PLACEHOLDER) {
    throw new BlobReferenceError(`no blob placeholder at ${at.join('.')}`);
  }
  return { container: container as object, key };
}

function childOf(container: unknown, segment: PathSegment): unknown {
  if (container === null || typeof container !== 'object' || !Object.hasOwn(container, segment)) {
    throw new BlobReferenceError(`a blob reference's path leads nowhere (at "${segment}")`);
  }
  return (container as Record<PathSegment, unknown>)[segment];
}
