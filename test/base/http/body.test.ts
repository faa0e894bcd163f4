/**
 * The transport's response body: chunks as they arrive, a reader, the lock, leaving early
 * (which drops the connection, as cancelling fetch's body does), web streams on demand.
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TransportUnsupportedError,
  transportFetch,
  type TransportResponse,
} from '../../../src/base/http/index.ts';
import { startLoopbackServer, type LoopbackServer } from './loopback-server.ts';

let server: LoopbackServer;
/** The response of the latest `/parts` request, for the test to write the next part. */
let open: ServerResponse | undefined;

beforeAll(async () => {
  server = await startLoopbackServer();
  server.route('/parts', (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.write('first');
    open = response;
  });
  server.route('/whole', (_request, response) => response.end('one two three'));
});

afterAll(() => server.close());

const text = (chunk: Uint8Array | undefined) => new TextDecoder().decode(chunk);

async function parts(): Promise<TransportResponse> {
  open = undefined;
  return transportFetch(`${server.origin}/parts`);
}

describe('TransportBody', () => {
  it('yields each chunk as it arrives, before the response ends', async () => {
    const response = await parts();
    const chunks = response.body![Symbol.asyncIterator]();
    expect(text((await chunks.next()).value)).toBe('first');
    open!.end('second');
    expect(text((await chunks.next()).value)).toBe('second');
    expect((await chunks.next()).done).toBe(true);
    expect([response.bodyUsed, response.body!.locked]).toEqual([true, false]);
  });

  it('reads with a reader, which can be released and taken again where it stopped', async () => {
    const response = await parts();
    const body = response.body!;
    const reader = body.getReader();
    expect([body.locked, text((await reader.read()).value)]).toEqual([true, 'first']);
    reader.releaseLock();
    expect(body.locked).toBe(false);
    await expect(reader.read()).rejects.toThrow('the reader has been released');
    const again = body.getReader();
    open!.end('rest');
    expect(text((await again.read()).value)).toBe('rest');
    expect(await again.read()).toEqual({ done: true, value: undefined });
  });

  it('refuses a second reader or iterator while one holds it, and a byob reader', async () => {
    const response = await transportFetch(`${server.origin}/whole`);
    const body = response.body!;
    expect(() => body.getReader({ mode: 'byob' })).toThrow(TransportUnsupportedError);
    body.getReader();
    expect(() => body.getReader()).toThrow('the response body is locked');
    expect(() => body[Symbol.asyncIterator]()).toThrow('the response body is locked');
    await expect(body.cancel()).rejects.toThrow('the response body is locked');
    await expect(response.text()).rejects.toThrow('Body is unusable');
  });

  it('drops the connection when an iteration is left before the end', async () => {
    const response = await parts();
    for await (const chunk of response.body!) {
      expect(text(chunk)).toBe('first');
      break;
    }
    await server.closed(server.requests.at(-1)!);
    expect(open!.writableEnded).toBe(false);
  });

  it('drops the connection when the body or its reader is cancelled', async () => {
    const cancelled = await parts();
    await cancelled.body!.cancel();
    await server.closed(server.requests.at(-1)!);
    expect(cancelled.bodyUsed).toBe(true);
    const read = await parts();
    const reader = read.body!.getReader();
    await reader.read();
    await reader.cancel();
    await server.closed(server.requests.at(-1)!);
  });

  it('keeps the connection for the next request once a body was read to its end', async () => {
    await (await transportFetch(`${server.origin}/whole`)).text();
    const connections = server.connections();
    await (await transportFetch(`${server.origin}/whole`)).text();
    await (await transportFetch(`${server.origin}/whole`)).text();
    expect(server.connections()).toBe(connections);
  });

  it('goes through web streams on demand: pipeThrough, pipeTo and tee', async () => {
    const piped = (await transportFetch(`${server.origin}/whole`)).body!;
    let decoded = '';
    const decoder = new TextDecoder();
    const decoding = new TransformStream<Uint8Array, string>({
      transform: (chunk, controller) => controller.enqueue(decoder.decode(chunk, { stream: true })),
    });
    for await (const part of piped.pipeThrough(decoding)) decoded += part;
    expect(decoded).toBe('one two three');
    const written: string[] = [];
    await (
      await transportFetch(`${server.origin}/whole`)
    ).body!.pipeTo(new WritableStream({ write: (chunk) => void written.push(text(chunk)) }));
    expect(written.join('')).toBe('one two three');
    const [left, right] = (await transportFetch(`${server.origin}/whole`)).body!.tee();
    const all = async (stream: ReadableStream<Uint8Array>) => {
      let joined = '';
      for await (const chunk of stream) joined += text(chunk);
      return joined;
    };
    expect(await Promise.all([all(left), all(right)])).toEqual(['one two three', 'one two three']);
  });
});
