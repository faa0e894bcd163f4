import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test server saw. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (request: SeenRequest, response: ServerResponse) => void;

/** A loopback HTTP server with per-path handlers that records every request. */
export interface TestServer {
  url: string;
  seen: SeenRequest[];
  route(path: string, handler: Handler): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 with a random port. */
export async function startTestServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const seen: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const record: SeenRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(record);
      const path = record.url.split('?')[0] ?? '';
      const handler = routes.get(path);
      if (handler === undefined) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
        return;
      }
      handler(record, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    route: (path, handler) => routes.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
