/**
 * The response the transport returns: what fetch callers use of a `Response` (status, ok,
 * statusText, headers as a real `Headers`, url, redirected, type, body, bodyUsed, text, json,
 * arrayBuffer, bytes, blob). `formData()` and `clone()` throw a TransportUnsupportedError.
 */
import type { TransportBody } from './response-body.ts';
import { TransportUnsupportedError } from './transport-errors.ts';

const utf8 = new TextDecoder();

/** The parts of a response, as `transportFetch` gathered them. */
export interface TransportResponseInit {
  status: number;
  statusText: string;
  headers: Headers;
  url: string;
  redirected: boolean;
  /** Null for a HEAD request and for statuses without a body (101, 103, 204, 205, 304). */
  body: TransportBody | null;
}

/** A fetch-compatible response over undici's response. */
export class TransportResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = 'basic' as const;
  readonly body: TransportBody | null;

  constructor(init: TransportResponseInit) {
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
    this.redirected = init.redirected;
    this.body = init.body;
  }

  /** True for a 2xx status. */
  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** True once the body has been read from or cancelled. */
  get bodyUsed(): boolean {
    return this.body?.disturbed ?? false;
  }

  /** The body as UTF-8 text (a leading byte-order mark dropped, as fetch drops it). */
  async text(): Promise<string> {
    return utf8.decode(await this.bytes());
  }

  /** The body parsed as JSON; a SyntaxError when it is not JSON. */
  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.bytes()).buffer;
  }

  async blob(): Promise<Blob> {
    const bytes = await this.bytes();
    return new Blob([bytes], { type: this.headers.get('content-type') ?? '' });
  }

  /** The whole body in a new array of its own. */
  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const body = this.body;
    if (body === null) return new Uint8Array(0);
    if (body.disturbed || body.locked) {
      throw new TypeError('Body is unusable: Body has already been read');
    }
    const chunks: Uint8Array[] = [];
    let length = 0;
    for await (const chunk of body) {
      chunks.push(chunk);
      length += chunk.byteLength;
    }
    const bytes = new Uint8Array(length);
    let offset = 0;
    for (const chunk of chunks) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return bytes;
  }

  formData(): Promise<never> {
    return Promise.reject(new TransportUnsupportedError('formData() of a response'));
  }

  clone(): never {
    throw new TransportUnsupportedError('clone() of a response');
  }
}
