/**
 * A loopback HTTP server for the transport's tests: a handler per path with the raw request and
 * response, every request recorded (headers, body, which connection brought it), and the
 * connections it accepted and saw closed.
 */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export { closedPort } from '../../fixtures/closed-port.ts';

/** A request the server received. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** 1 for the server's first connection, 2 for its second, … */
  connection: number;
}

type Handler = (request: ReceivedRequest, response: ServerResponse, raw: IncomingMessage) => void;

export interface LoopbackServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  requests: ReceivedRequest[];
  /** Connections accepted so far. */
  connections(): number;
  /** Resolves when the connection that brought `request` closes. */
  closed(request: ReceivedRequest): Promise<void>;
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 and a random port; unknown paths answer 404. */
export async function startLoopbackServer(): Promise<LoopbackServer> {
  const routes = new Map<string, Handler>();
  const requests: ReceivedRequest[] = [];
  const sockets: Socket[] = [];
  const closings: Array<Promise<void>> = [];
  const server = createServer((raw, response) => {
    const chunks: Buffer[] = [];
    raw.on('data', (chunk: Buffer) => chunks.push(chunk));
    raw.on('end', () => {
      const request: ReceivedRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        connection: sockets.indexOf(raw.socket) + 1,
      };
      requests.push(request);
      const handler = routes.get(request.url.split('?')[0] ?? '');
      if (handler === undefined) response.writeHead(404).end('no route');
      else handler(request, response, raw);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.push(socket);
    closings.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    connections: () => sockets.length,
    closed: (request) => closings[request.connection - 1]!,
    route: (path, handler) => void routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** What a rejection looked like: the error's class name and message, its cause's code. */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; cause: string | undefined }> {
  try {
    await promise;
  } catch (error) {
    const { name, message, cause } = error as Error & {
      cause?: { code?: string; message?: string };
    };
    return { name, message, cause: cause?.code ?? cause?.message };
  }
  throw new Error('expected a rejection');
}
