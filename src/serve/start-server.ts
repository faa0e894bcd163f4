/**
 * `startServer`: the run service and its HTTP app listening on one address, the runs a killed
 * server left in flight resumed once it listens, and the way down: stop starting runs, let
 * running ones finish within the grace, cancel the rest (resumable), close every connection.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { UsageError } from '../base/errors.ts';
import type { Project } from '../run/project.ts';
import type { RunTracesOpener } from '../run/execute-mission-run.ts';
import { createApp } from './http/app.ts';
import { isLoopback, loopbackHosts } from './http/guards.ts';
import { RunService } from './run-service.ts';

/** How `sortie serve` is set up. */
export interface ServeOptions {
  project: Project;
  stateDir: string;
  /** The user-wide run index file (undefined: none). */
  runIndex: string | undefined;
  host: string;
  /** 0 picks a free port (the URL says which). */
  port: number;
  token: string | undefined;
  corsOrigin: string | undefined;
  /** Requests one mission's queue holds at most. */
  queueLimit: number;
  /** Resume the runs a previous server left in flight. */
  resume: boolean;
  version: string;
  log: (line: string) => void;
  /** Opens each run's trace export (`--otel`, the OpenTelemetry variables). */
  traces?: RunTracesOpener;
}

/** A listening server. */
export interface RunningServer {
  url: string;
  service: RunService;
  /** Stops starting runs, cancels running ones once `grace` resolves, closes; settles when down. */
  stop(grace: Promise<void>): Promise<void>;
}

/** The address as a URL host: an IPv6 address in brackets. */
function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Listens; rejects with a UsageError when the address cannot be bound. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const service = new RunService({
    project: options.project,
    stateDir: options.stateDir,
    runIndex: options.runIndex,
    queueLimit: options.queueLimit,
    log: options.log,
    ...(options.traces !== undefined ? { traces: options.traces } : {}),
  });
  let allowedHosts: ReadonlySet<string> | undefined;
  const app = createApp({
    config: options.project.config,
    stateDir: options.stateDir,
    service,
    token: options.token,
    corsOrigin: options.corsOrigin,
    allowedHosts: () => allowedHosts,
    version: options.version,
  });
  const server = await new Promise<Server>((resolve, reject) => {
    // node-server's plain HTTP server (no TLS or HTTP/2 options are passed).
    const listening = serve(
      {
        fetch: app.fetch,
        hostname: options.host,
        port: options.port,
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
          `cannot listen on ${urlHost(options.host)}:${options.port}: ${error.code ?? error.message}`,
          error.code === 'EADDRINUSE' ? 'choose another --port (0 picks a free one)' : undefined,
        ),
      ),
    );
  });
  const { port } = server.address() as AddressInfo;
  if (isLoopback(options.host)) allowedHosts = loopbackHosts(port);
  if (options.resume) await service.resumeInFlight();
  return {
    url: `http://${urlHost(options.host)}:${port}`,
    service,
    async stop(grace) {
      await service.shutdown(grace);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
