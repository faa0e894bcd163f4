/**
 * The scripted model server: a real HTTP server on 127.0.0.1 that answers model requests in
 * the OpenAI Responses, Anthropic Messages and Gemini generateContent wire formats from a
 * script of turns, and records every request. Point an SDK's base URL at `baseUrl()`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SortieError } from '../base/errors.ts';
import type { ProtocolHandler, RequestSummary } from './protocol.ts';
import { defaultProtocolHandlers } from './protocols/index.ts';
import { redactHeaders, redactPath } from './redact-request.ts';
import { answer, Timers } from './respond.ts';
import type { Protocol, RecordedRequest, ScriptTurn } from './script.ts';
import { describeTurn, pickTurn } from './turn-matching.ts';

export interface ScriptedModelServerOptions {
  turns?: ScriptTurn[];
  /** Default: every built-in protocol (`defaultProtocolHandlers()`). */
  handlers?: ProtocolHandler[];
  /**
   * Status answered when no turn fits. Default 400: a non-retryable status, so the run fails
   * at once with the explanation instead of retrying with backoff.
   */
  unexpectedStatus?: number;
  /**
   * Answers a request no scripted turn fits, from the request itself (e.g. how far its
   * conversation got), before it counts as unexpected. Its turns are not consumed, so a request
   * sent again (a run resumed after a crash) gets the same answer.
   */
  respond?: (request: RespondRequest) => ScriptTurn | undefined;
}

/** What `respond` sees of a request. */
export interface RespondRequest {
  protocol: Protocol;
  actor: string | undefined;
  summary: RequestSummary;
  /** The parsed JSON body in the protocol's own shape. */
  body: unknown;
}

/** Generated ids of `respond` turns start here, clear of the script's turn indexes. */
const RESPOND_TURN_BASE = 1_000_000;

/** `assertDone()` found unused turns or unexpected requests. */
export class ScriptNotDoneError extends SortieError {
  constructor(
    message: string,
    readonly unusedTurns: number[],
    readonly unexpectedRequests: RecordedRequest[],
  ) {
    super(message);
  }
}

/** Which protocol a request was probably meant for when no handler accepted it. */
function guessProtocol(path: string): Protocol {
  if (path.includes('generateContent')) return 'gemini';
  if (path.includes('/messages')) return 'anthropic';
  return 'openai';
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A scripted model server; see docs/testing.md. */
export class ScriptedModelServer {
  /** Every request in order of arrival, credentials redacted. */
  readonly requests: RecordedRequest[] = [];
  private readonly turns: ScriptTurn[];
  private readonly used = new Set<number>();
  private readonly timers = new Timers();
  private readonly unexpectedStatus: number;
  private readonly respond: ScriptedModelServerOptions['respond'];

  private constructor(
    private readonly server: Server,
    /** `http://127.0.0.1:PORT` */
    readonly url: string,
    options: ScriptedModelServerOptions,
    private readonly handlers: ProtocolHandler[],
  ) {
    this.turns = [...(options.turns ?? [])];
    this.unexpectedStatus = options.unexpectedStatus ?? 400;
    this.respond = options.respond;
  }

  /** Starts a server on a random loopback port. */
  static async start(options: ScriptedModelServerOptions = {}): Promise<ScriptedModelServer> {
    const handlers = options.handlers ?? defaultProtocolHandlers();
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    const instance = new ScriptedModelServer(server, `http://127.0.0.1:${port}`, options, handlers);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      instance.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(`scripted model server failed: ${String(error)}`);
      });
    });
    return instance;
  }

  /** The base URL each SDK expects: OpenAI `URL/v1`; Anthropic and Gemini `URL`. */
  baseUrl(protocol: Protocol): string {
    return protocol === 'openai' ? `${this.url}/v1` : this.url;
  }

  /** Appends turns to the script. */
  push(...turns: ScriptTurn[]): void {
    this.turns.push(...turns);
  }

  /** Indexes of turns that no request has used yet. */
  unusedTurns(): number[] {
    return this.turns.map((_, index) => index).filter((index) => !this.used.has(index));
  }

  /** Throws when a turn was not used or a request found no turn; the message lists both. */
  assertDone(): void {
    const unused = this.unusedTurns();
    const unexpected = this.requests.filter((request) => request.turn === -1);
    if (unused.length === 0 && unexpected.length === 0) return;
    const lines: string[] = [];
    if (unused.length > 0) {
      lines.push(
        `${unused.length} script turn${unused.length === 1 ? ' was' : 's were'} not used:`,
      );
      for (const index of unused) lines.push(`  ${describeTurn(this.turns[index]!, index)}`);
    }
    if (unexpected.length > 0) {
      lines.push(
        `${unexpected.length} unexpected request${unexpected.length === 1 ? '' : 's'} (no turn fitted):`,
      );
      for (const request of unexpected) {
        lines.push(
          `  ${request.method} ${request.path}${request.actor !== undefined ? ` actor ${request.actor}` : ''}`,
        );
      }
    }
    throw new ScriptNotDoneError(lines.join('\n'), unused, unexpected);
  }

  /** Stops the server, dropping open connections and pending delays. */
  async close(): Promise<void> {
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const method = request.method ?? 'GET';
    const path = redactPath(request.url ?? '/');
    const pathname = new URL(request.url ?? '/', this.url).pathname;
    const actorHeader = request.headers['x-sortie-actor'];
    const actor = Array.isArray(actorHeader) ? actorHeader[0] : actorHeader;
    const handler = this.handlers.find((candidate) => candidate.accepts(method, pathname));
    const record: RecordedRequest = {
      protocol: handler?.protocol ?? guessProtocol(pathname),
      method,
      path,
      headers: redactHeaders(request.headers),
      body,
      stream: false,
      turn: -1,
    };
    if (actor !== undefined) record.actor = actor;
    this.requests.push(record);
    if (handler === undefined) {
      this.refuse(response, `no protocol handler serves ${method} ${pathname}`);
      return;
    }
    const summary = handler.summarize(pathname, body);
    record.stream = summary.stream;
    const turnIndex = pickTurn(this.turns, this.used, {
      protocol: handler.protocol,
      actor,
      summary,
    });
    const turn =
      turnIndex === -1
        ? this.respond?.({ protocol: handler.protocol, actor, summary, body })
        : this.turns[turnIndex]!;
    if (turn === undefined) {
      const from = actor !== undefined ? ` from actor ${actor}` : '';
      this.refuse(
        response,
        `no unused script turn fits this ${handler.protocol} request${from}`,
        handler,
      );
      return;
    }
    if (turnIndex !== -1) {
      this.used.add(turnIndex);
      record.turn = turnIndex;
    }
    const answered = turnIndex === -1 ? RESPOND_TURN_BASE + this.requests.length : turnIndex;
    await answer({
      request,
      response,
      handler,
      turn,
      context: { turnIndex: answered, model: summary.model },
      stream: summary.stream,
      timers: this.timers,
    });
  }

  private refuse(response: ServerResponse, reason: string, handler?: ProtocolHandler): void {
    const message = `scripted model server: ${reason} (see ScriptedModelServer.assertDone())`;
    const body = handler?.errorBody(this.unexpectedStatus, message) ?? { error: { message } };
    response.writeHead(this.unexpectedStatus, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  }
}
