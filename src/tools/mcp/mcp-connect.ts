/**
 * One connection to one MCP server with the SDK's client: a child process over stdio, or a
 * remote server over Streamable HTTP (SSE when the URL's path ends in `/sse`). Connecting
 * initialises the session and lists the server's tools (every page).
 */
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  LoggingMessageNotificationSchema,
  type CreateMessageRequest,
  type CreateMessageResult,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { withOwnSignal } from '../../base/abort.ts';
import { McpRequestRefusedError } from './mcp-errors.ts';
import { startFailure } from './mcp-failures.ts';
import { usesSseTransport } from './mcp-spec.ts';
import type { RunAuth } from './oauth/run-auth.ts';

/** Where a server is reached: a program to spawn, or a URL. */
export type McpEndpoint =
  | { kind: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { kind: 'http'; url: string; headers: Record<string, string>; auth?: RunAuth };

/** How long initialising and listing tools may take: a server that hangs fails the start. */
export const START_TIMEOUT_MS = 30_000;
/** Characters of a child's stderr kept for error messages. */
const STDERR_TAIL_CHARS = 2_000;

/** How the client answers a server's own requests. */
export interface McpClientHandlers {
  /** `elicitation/create`: a question to the person. */
  elicit(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult>;
  /** The block allows sampling: the capability is announced to the server. */
  sampling: boolean;
  /** `sampling/createMessage`: one reply of a model, or an error saying why not. */
  sample(params: CreateMessageRequest['params'], signal: AbortSignal): Promise<CreateMessageResult>;
  /** `notifications/message`: the server's log message. */
  log(params: LoggingMessageNotification['params']): void;
}

/** A live session with a server. */
export interface McpConnection {
  client: Client;
  /** The child's process id (stdio servers). */
  pid: number | undefined;
  /** The tools the server listed when it started, in its order. */
  tools: Tool[];
  /** The end of what the child wrote to stderr (stdio servers), for error messages. */
  stderrTail(): string;
  /** Settles when the connection ends, whoever ended it (the server's crash included). */
  ended: Promise<void>;
  /** Ends the session; a child gets its stdin closed, then SIGTERM, then SIGKILL. */
  close(): Promise<void>;
}

const CLIENT_INFO = { name: 'sortie', version: packageVersion() };

/** Connects, initialises and lists tools; throws McpStartError naming the server. */
export async function openConnection(
  server: string,
  endpoint: McpEndpoint,
  signal?: AbortSignal,
  handlers?: McpClientHandlers,
): Promise<McpConnection> {
  let stderr = '';
  const transport = createTransport(endpoint, (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const client = createClient(handlers);
  let resolveEnded = (): void => undefined;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
  client.onclose = () => resolveEnded();
  // Transport errors also reject the request in flight; the session reports those.
  client.onerror = () => undefined;
  try {
    // The SDK keeps an abort listener per request: its requests get a signal of their own.
    const tools = await withOwnSignal(signal, async (own) => {
      const options = { timeout: START_TIMEOUT_MS, signal: own };
      await client.connect(transport, options);
      answerAfterNotifications(transport);
      return listAllTools(client, options);
    });
    const pid =
      transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
    return { client, pid, tools, stderrTail: () => stderr, ended, close: () => client.close() };
  } catch (error) {
    await client.close().catch(() => undefined);
    if (signal?.aborted === true) throw error;
    throw startFailure(server, endpoint, error, stderr);
  }
}

/**
 * The SDK handles a response at once but a notification one microtask later, so progress read
 * together with its call's response (a server reporting just before it answers) would find the
 * call already gone and be dropped: each response waits one microtask, behind them.
 */
function answerAfterNotifications(transport: Transport): void {
  const deliver = transport.onmessage;
  if (deliver === undefined) return;
  transport.onmessage = (message, extra) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      queueMicrotask(() => deliver(message, extra));
    } else {
      deliver(message, extra);
    }
  };
}

/** A client announcing, and answering, what `handlers` can do. */
function createClient(handlers: McpClientHandlers | undefined): Client {
  if (handlers === undefined) return new Client(CLIENT_INFO, { capabilities: {} });
  const capabilities = {
    elicitation: { form: {}, url: {} },
    ...(handlers.sampling ? { sampling: {} } : {}),
  };
  const client = new Client(CLIENT_INFO, { capabilities });
  client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
    handlers.elicit(request.params, extra.signal),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
    handlers.log(notification.params),
  );
  if (handlers.sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      handlers.sample(request.params, extra.signal),
    );
  } else {
    // Not announced, so the SDK refuses a handler: a server sampling anyway learns why it may not.
    client.fallbackRequestHandler = async (request, extra) => {
      if (request.method !== CreateMessageRequestSchema.shape.method.value) {
        throw new McpRequestRefusedError(ErrorCode.MethodNotFound, 'Method not found');
      }
      const parsed = CreateMessageRequestSchema.safeParse(request);
      if (!parsed.success) {
        throw new McpRequestRefusedError(ErrorCode.InvalidParams, parsed.error.message);
      }
      return handlers.sample(parsed.data.params, extra.signal);
    };
  }
  return client;
}

function createTransport(endpoint: McpEndpoint, onStderr: (chunk: string) => void): Transport {
  if (endpoint.kind === 'stdio') {
    const transport = new StdioClientTransport({
      command: endpoint.command,
      args: endpoint.args,
      // Merged onto sortie's environment (the SDK alone would pass only a few safe variables).
      env: { ...inheritedEnvironment(), ...endpoint.env },
      // Piped, never inherited: the server's log must not draw over the TUI.
      stderr: 'pipe',
      ...(endpoint.cwd !== undefined ? { cwd: endpoint.cwd } : {}),
    });
    transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
    return transport;
  }
  const url = new URL(endpoint.url);
  const { auth } = endpoint;
  const options = {
    requestInit: { headers: endpoint.headers },
    ...(auth !== undefined ? { authProvider: auth.provider, fetch: auth.fetch } : {}),
  };
  return usesSseTransport(url)
    ? new SSEClientTransport(url, options)
    : new StreamableHTTPClientTransport(url, options);
}

async function listAllTools(
  client: Client,
  options: { timeout: number; signal?: AbortSignal },
): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor !== undefined ? { cursor } : {}, options);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

function inheritedEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}

/** sortie's version, three folders up both in the sources (src/tools/mcp) and the build. */
function packageVersion(): string {
  try {
    const text = readFileSync(new URL('../../../package.json', import.meta.url), 'utf8');
    const { version } = JSON.parse(text) as { version?: unknown };
    return typeof version === 'string' ? version : 'unknown';
  } catch {
    return 'unknown';
  }
}
