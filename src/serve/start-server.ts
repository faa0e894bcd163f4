/**
 * `startServer`: the run service and its HTTP app listening on one address (and the
 * `mcp_host`'s MCP endpoint on a port of its own, when enabled), the runs a killed server left
 * in flight resumed once it listens, and the way down: stop starting runs, let running ones
 * finish within the grace, cancel the rest (resumable), close every connection.
 */
import type { Project } from '../run/project.ts';
import type { RunTracesOpener } from '../run/execute-mission-run.ts';
import { createApp } from './http/app.ts';
import { listen, urlHost } from './listen.ts';
import type { McpHttpHost } from './mcp-host/http-host.ts';
import { KEEP_ALIVE_MS } from './http/keep-alive.ts';
import { RunService } from './run-service.ts';
import { systemClock, type SchedulerClock } from './scheduler-clock.ts';

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
  /** The `mcp_host` endpoint's port instead of the block's (`--mcp-port`; 0 picks a free one). */
  mcpPort?: number;
  /** The clock of the event streams' keep-alive and MCP sessions' idle limit (default the system's). */
  clock?: SchedulerClock;
  /** How long an `mcp_host` session may sit idle before it is closed (default 30 minutes). */
  mcpSessionIdleMs?: number;
  /** The time between keep-alive comments on an event stream (default 15 s). */
  keepAliveMs?: number;
}

/** A listening server. */
export interface RunningServer {
  url: string;
  /** The `mcp_host` endpoint's URL, when it listens. */
  mcpUrl: string | undefined;
  service: RunService;
  /** Stops starting runs, cancels running ones once `grace` resolves, closes; settles when down. */
  stop(grace: Promise<void>): Promise<void>;
}

/** Listens; rejects with a UsageError when an address cannot be bound. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const service = new RunService({
    project: options.project,
    stateDir: options.stateDir,
    runIndex: options.runIndex,
    queueLimit: options.queueLimit,
    log: options.log,
    ...(options.traces !== undefined ? { traces: options.traces } : {}),
  });
  const api = await listen(
    (allowedHosts) =>
      createApp({
        config: options.project.config,
        stateDir: options.stateDir,
        service,
        token: options.token,
        corsOrigin: options.corsOrigin,
        allowedHosts,
        version: options.version,
        clock: options.clock ?? systemClock,
        keepAliveMs: options.keepAliveMs ?? KEEP_ALIVE_MS,
      }).fetch,
    { host: options.host, port: options.port },
    'sortie serve',
    'choose another --port (0 picks a free one)',
  );
  const mcpHost = await startMcpHost(options, service).catch(async (error: unknown) => {
    await api.close();
    throw error;
  });
  if (options.resume) await service.resumeInFlight();
  return {
    url: `http://${urlHost(options.host)}:${api.port}`,
    mcpUrl: mcpHost?.url,
    service,
    async stop(grace) {
      await service.shutdown(grace);
      await mcpHost?.stop();
      await api.close();
    },
  };
}

/**
 * The `mcp_host` block's MCP endpoint on the serve's address and run service, when the block
 * enables it and its secret, if it has one, has a value. The MCP SDK is loaded only then.
 */
async function startMcpHost(
  options: ServeOptions,
  service: RunService,
): Promise<McpHttpHost | undefined> {
  const block = options.project.config.mcpHost;
  if (block === undefined || !block.enabled || block.unsetSecretVariable !== undefined) {
    return undefined;
  }
  const { startMcpHttpHost } = await import('./mcp-host/http-host.ts');
  const { project, stateDir, version, log } = options;
  return startMcpHttpHost({
    host: { project, stateDir, service, version, log },
    address: options.host,
    port: options.mcpPort ?? block.port,
    secret: block.secret,
    clock: options.clock ?? systemClock,
    ...(options.mcpSessionIdleMs !== undefined ? { sessionIdleMs: options.mcpSessionIdleMs } : {}),
  });
}
