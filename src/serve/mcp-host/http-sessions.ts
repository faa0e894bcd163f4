/**
 * The MCP sessions of the `mcp_host` endpoint: each client's `initialize` opens one, with an MCP
 * server of its own (the same tools and resources as the stdio server) on the SDK's Streamable
 * HTTP transport; later requests carry the session's id and go to its transport. Every
 * session's runs go through the one run service of `sortie serve`.
 */
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { MAX_BODY_BYTES } from '../http/guards.ts';
import type { McpHostContext } from './host-context.ts';
import { createMcpServer } from './mcp-server.ts';

/** One client's session. */
interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

/**
 * The answer to a session id this endpoint does not know (it ended, or the server restarted):
 * 404, which tells a client to initialize again, in the transport's own error shape.
 */
function unknownSession(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };
  return Response.json(body, { status: 404 });
}

/** The open sessions of one MCP endpoint. */
export class McpSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly host: McpHostContext) {}

  /** Answers one request to `/mcp`. */
  async handle(request: Request): Promise<Response> {
    const sessionId = request.headers.get('mcp-session-id');
    if (sessionId === null) return this.open(request);
    const session = this.sessions.get(sessionId);
    if (session === undefined) return unknownSession();
    return session.transport.handleRequest(request);
  }

  /** Closes every session (their open streams end). */
  async closeAll(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(open.map((session) => session.server.close()));
  }

  /**
   * A request without a session: a new server and transport answer it. Only an `initialize`
   * makes a session (the transport answers anything else with its own error); otherwise both
   * are dropped again.
   */
  private async open(request: Request): Promise<Response> {
    const server = createMcpServer(this.host);
    const transport: WebStandardStreamableHTTPServerTransport =
      new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void this.sessions.set(id, { transport, server }),
        onsessionclosed: (id) => void this.sessions.delete(id),
        maxRequestBodySize: MAX_BODY_BYTES,
      });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (transport.sessionId === undefined) await server.close();
    return response;
  }
}
