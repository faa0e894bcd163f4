/**
 * The `mcp_host` block under `sortie serve`: sortie's MCP server over Streamable HTTP at `/mcp`,
 * on a port of its own and the address `sortie serve` listens on (loopback unless told
 * otherwise). A request passes the Host and Origin checks on loopback (DNS rebinding), then the
 * secret when the block sets one (`Authorization: Bearer SECRET` or `?token=SECRET`), then goes
 * to its MCP session.
 */
import { Hono } from 'hono';
import { bearerToken, hostCheck, jsonError, originCheck } from '../http/guards.ts';
import { listen, urlHost } from '../listen.ts';
import type { SchedulerClock } from '../scheduler-clock.ts';
import type { McpHostContext } from './host-context.ts';
import { McpSessions } from './http-sessions.ts';

/** Where and how the endpoint listens. */
export interface McpHttpOptions {
  host: McpHostContext;
  /** The address (`sortie serve --host`). */
  address: string;
  /** 0 picks a free one (the URL says which). */
  port: number;
  secret: string | undefined;
  /** Times the sessions' idle limit. */
  clock: SchedulerClock;
  /** How long a session may sit idle before it is closed (default 30 minutes). */
  sessionIdleMs?: number;
}

/** A listening MCP endpoint. */
export interface McpHttpHost {
  /** Its URL, `/mcp` included. */
  url: string;
  /** Closes every session and the listener. */
  stop(): Promise<void>;
}

/** What a client without the secret is told: how to send it, never what it is. */
const SECRET_MESSAGE =
  "send the mcp_host block's secret as Authorization: Bearer <secret> or ?token=<secret>";

/** The endpoint's app: the guards, then `/mcp` for every method the transport serves. */
function mcpApp(
  sessions: McpSessions,
  secret: string | undefined,
  allowedHosts: () => ReadonlySet<string> | undefined,
): Hono {
  const app = new Hono();
  app.onError((_error, context) =>
    jsonError(context, 500, 'internal', 'the MCP host failed to answer this request'),
  );
  app.notFound((context) => jsonError(context, 404, 'not_found', 'sortie serves MCP at /mcp'));
  app.use('*', hostCheck(allowedHosts));
  app.use('*', originCheck(allowedHosts));
  if (secret !== undefined) {
    app.use('*', bearerToken(secret, { query: true, message: SECRET_MESSAGE }));
  }
  app.all('/mcp', (context) => sessions.handle(context.req.raw));
  return app;
}

/** Listens; rejects with a UsageError when the port cannot be bound. */
export async function startMcpHttpHost(options: McpHttpOptions): Promise<McpHttpHost> {
  const sessions = new McpSessions(options.host, options.clock, options.sessionIdleMs);
  const listening = await listen(
    (allowedHosts) => mcpApp(sessions, options.secret, allowedHosts).fetch,
    { host: options.address, port: options.port },
    'mcp_host',
    'choose another port in the mcp_host block, or --mcp-port (0 picks a free one)',
  );
  return {
    url: `http://${urlHost(options.address)}:${listening.port}/mcp`,
    async stop() {
      await sessions.closeAll();
      await listening.close();
    },
  };
}
