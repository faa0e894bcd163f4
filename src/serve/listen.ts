/**
 * One listener of `sortie serve` (its API, or the `mcp_host`'s MCP endpoint): a Hono app's
 * fetch on node-server's plain HTTP server, bound to one address, with a usage error when the
 * address cannot be bound.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { UsageError } from '../base/errors.ts';
import { isLoopback, loopbackHosts } from './http/guards.ts';

/** A bound listener and the port it got (`0` asks for a free one). */
export interface Listening {
  server: Server;
  port: number;
  /** Closes every connection and the listener; settles once it is closed. */
  close(): Promise<void>;
}

/** An app's fetch, made with the Host headers it is to accept (read per request; undefined: any). */
export type AppFetch = (
  allowedHosts: () => ReadonlySet<string> | undefined,
) => (request: Request) => Response | Promise<Response>;

/** The address as a URL host: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Listens on `host:port`; rejects with a UsageError naming `what` when it cannot, with
 * `portHint` as the hint when the port is taken. On loopback the app accepts only the Host
 * headers naming the listener itself (DNS rebinding).
 */
export async function listen(
  appFetch: AppFetch,
  address: { host: string; port: number },
  what: string,
  portHint: string,
): Promise<Listening> {
  let allowedHosts: ReadonlySet<string> | undefined;
  const fetch = appFetch(() => allowedHosts);
  const server = await new Promise<Server>((resolve, reject) => {
    // node-server's plain HTTP server (no TLS or HTTP/2 options are passed).
    const listening = serve(
      {
        fetch,
        hostname: address.host,
        port: address.port,
        // Node's own handling of a body nobody read (a 413, a 401): it is read to its end and
        // thrown away, so the client gets the answer. node-server's cleanup closes the socket
        // after half a second, which a client still sending a big body sees as a reset.
        autoCleanupIncoming: false,
      },
      () => resolve(listening as Server),
    ) as Server;
    listening.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new UsageError(
          `${what} cannot listen on ${urlHost(address.host)}:${address.port}: ${error.code ?? error.message}`,
          error.code === 'EADDRINUSE' ? portHint : undefined,
        ),
      ),
    );
  });
  const port = (server.address() as AddressInfo).port;
  if (isLoopback(address.host)) allowedHosts = loopbackHosts(port);
  return {
    server,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
