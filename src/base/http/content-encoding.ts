/**
 * Decoding of compressed response bodies. The transport never asks for compression (it sends
 * no `accept-encoding`), so a body arrives compressed only when the caller asked for it in its
 * own headers or the server compresses unasked; fetch decodes both, and so does this, for the
 * codings fetch knows in Node 20 (gzip, deflate wrapped or raw, br). Any other coding is left
 * as it came, as fetch leaves it.
 */
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  type Inflate,
  type InflateRaw,
} from 'node:zlib';

// fetch's flush modes: a body that ends early yields what it held instead of failing at once.
const ZLIB_FLUSH = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_FLUSH = {
  flush: constants.BROTLI_OPERATION_FLUSH,
  finishFlush: constants.BROTLI_OPERATION_FLUSH,
};

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => createGunzip(ZLIB_FLUSH),
  'x-gzip': () => createGunzip(ZLIB_FLUSH),
  deflate: () => new DeflateDecoder(),
  br: () => createBrotliDecompress(BROTLI_FLUSH),
};

/**
 * `deflate` as servers send it: zlib-wrapped (RFC 1950) or raw (RFC 1951), told apart by the
 * first byte, as fetch tells them apart.
 */
class DeflateDecoder extends Transform {
  #inflate: Inflate | InflateRaw | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.#inflate === undefined) {
      if (chunk.length === 0) return callback();
      const wrapped = (chunk[0]! & 0x0f) === 0x08;
      this.#inflate = wrapped ? createInflate(ZLIB_FLUSH) : createInflateRaw(ZLIB_FLUSH);
      this.#inflate.on('data', (data: Buffer) => this.push(data));
      this.#inflate.on('error', (error) => this.destroy(error));
    }
    this.#inflate.write(chunk, () => callback());
  }

  override _flush(callback: TransformCallback): void {
    if (this.#inflate === undefined) return callback();
    this.#inflate.once('end', () => callback());
    this.#inflate.end();
  }
}

/** True when the body of a response with this `content-encoding` needs decoding. */
export function needsDecoding(contentEncoding: string | undefined): boolean {
  return contentEncoding !== undefined && contentEncoding !== '' && contentEncoding !== 'identity';
}

/**
 * The body with its codings undone, last applied first. A coding list with one unknown coding
 * is left whole, as fetch leaves it. A failure of either stream errors the returned one.
 */
export function decodeBody(source: Readable, contentEncoding: string): Readable {
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length === 0 || codings.some((coding) => DECODERS[coding] === undefined)) {
    return source;
  }
  const decoders = codings.reverse().map((coding) => DECODERS[coding]!());
  // pipeline destroys every stream when one fails; the last one errors for its reader.
  pipeline([source, ...decoders], () => undefined);
  return decoders[decoders.length - 1]!;
}
