/**
 * The MCP sessions of the `mcp_host` endpoint: each client's `initialize` opens one, with an MCP
 * server of its own (the same tools and resources as the stdio server) on the SDK's Streamable
 * HTTP transport; later requests carry the session's id and go to its transport. Every
 * session's runs go through the one run service of `sortie serve`. A session with no request
 * and no open stream for the idle time is closed: a client that vanished without a DELETE does
 * not keep its server forever, and one that comes back gets 404 and initializes again.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MAX_BODY_BYTES } from '../http/guards.ts';
import type { ClockTimer, SchedulerClock } from '../scheduler-clock.ts';
import type { McpHostContext } from './host-context.ts';
import { createMcpServer } from './mcp-server.ts';

/** How long a session may sit with no request and no open stream (30 minutes). */
export const SESSION_IDLE_MS = 30 * 60_000;

/** One client's session. */
interface Session {
  id: string;
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  /** Requests whose response is still being sent (an SSE stream stays open). */
  busy: number;
  idleTimer: ClockTimer | undefined;
}

/**
 * The answer to a session id this endpoint does not know (it ended, or the server restarted):
 * 404, which tells a client to initialize again, in the transport's own error shape.
 */
function unknownSession(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
  return Response.json(body, { status: 404 });
}

/** The response with `done` called once its body has been sent or dropped. */
function whenSent(response: Response, done: () => void): Response {
  if (response.body === null) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  let settled = false;
  const settle = (): void => {
    if (settled) return;
    settled = true;
    done();
  };
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done: ended, value } = await reader.read();
        if (ended) {
          settle();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        settle();
        controller.error(error);
      }
    },
    async cancel(reason) {
      settle();
      await reader.cancel(reason);
    },
  });
  const { status, statusText, headers } = response;
  return new Response(body, { status, statusText, headers });
}

/** The open sessions of one MCP endpoint. */
export class McpSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly host: McpHostContext,
    private readonly clock: SchedulerClock,
    private readonly idleMs = SESSION_IDLE_MS,
  ) {}

  /** Answers one request to `/mcp`. */
  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId === null) return this.open(request);
    const session = this.sessions.get(sessionId);
    if (session === undefined) return unknownSession();
    return this.answer(session, request);
  }

  /** Closes every session (their open streams end). */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    for (const session of open) session.idleTimer?.cancel();
    await Promise.all(open.map((session) => session.server.close()));
  }

  /**
   * A request without a session: a new server and transport answer it. Only an `initialize`
   * makes a session (the transport answers anything else with its own error); otherwise both
   * are dropped again.
   */
  private async open(request: Request): Promise<Response> {
    const server = createMcpServer(this.host);
    const opened: { session?: Session } = {};
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          opened.session = { id, transport, server, busy: 0, idleTimer: undefined };
          this.sessions.set(id, opened.session);
        },
        onsessionclosed: (id) => this.forget(id),
        maxRequestBodySize: MAX_BODY_BYTES,
      });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    const { session } = opened;
    if (session === undefined) {
      await server.close();
      return response;
    }
    session.busy += 1;
    return whenSent(response, () => this.settled(session));
  }

  /** A request of an open session; its idle time starts again once the answer is sent. */
  private async answer(session: Session, request: Request): Promise<Response> {
    session.busy += 1;
    session.idleTimer?.cancel();
    session.idleTimer = undefined;
    try {
      return whenSent(await session.transport.handleRequest(request), () => this.settled(session));
    } catch (error) {
      this.settled(session);
      throw error;
    }
  }

  /** One request of the session is answered; with none left, the idle time starts. */
  private settled(session: Session): void {
    session.busy -= 1;
    if (session.busy > 0 || !this.sessions.has(session.id)) return;
    session.idleTimer = this.clock.setTimer(() => {
      if (session.busy > 0 || this.sessions.get(session.id) !== session) return;
      this.forget(session.id);
      void session.server.close();
    }, this.idleMs);
  }

  private forget(id: string): void {
    const session = this.sessions.get(id);
    session?.idleTimer?.cancel();
    this.sessions.delete(id);
  }
}
