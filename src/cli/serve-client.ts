/**
 * A client of a `sortie serve` HTTP API (what `sortie attach` talks to): JSON requests with
 * the bearer token, and one connection to a run's event stream (Server-Sent Events) read as
 * events. Every failure is a UsageError of one line naming the server: not reachable, the
 * token refused, the run unknown, an answer that is not the server's JSON.
 */
import { UsageError } from '../base/errors.ts';
import { transportFetch } from '../base/http/fetch.ts';
import type { TransportResponse } from '../base/http/response.ts';
import type { MissionEvent } from '../base/events.ts';

/** The server `sortie attach` talks to when `--server` is not given. */
export const DEFAULT_SERVER = 'http://127.0.0.1:7700';

/** One streamed event: its `--json` text as the server sent it, and the event. */
export interface StreamedEvent {
  json: string;
  event: MissionEvent;
}

/** A refusal of the server, with its HTTP status (404: no such run; 401: the token). */
export class ServeRequestError extends UsageError {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The `--server` URL without a trailing slash; anything but http(s) is a usage error. */
export function serverUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--server ${text}: not a URL (e.g. ${DEFAULT_SERVER})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--server ${text}: expected an http:// or https:// URL`);
  }
  return url.href.replace(/\/+$/, '');
}

/** Why a request found no server, in a few words (the connection error's code). */
function unreachable(server: string, error: unknown): UsageError {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : 'no answer';
  const why = code === 'ECONNREFUSED' ? 'connection refused' : code;
  return new UsageError(
    `cannot reach the sortie server at ${server} (${why}): is \`sortie serve\` running there?`,
  );
}

/** The client of one server. */
export class ServeClient {
  constructor(
    readonly server: string,
    private readonly token: string | undefined,
  ) {}

  /** A JSON request; resolves with the answer's object, rejects with a one-line UsageError. */
  async json(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    const response = await this.send(path, {
      method,
      headers: {
        ...this.authorization(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = await this.parse(response);
    if (!response.ok) throw this.refusal(response.status, answer);
    return answer;
  }

  /**
   * Reads the run's event stream from after `after` (the `Last-Event-ID`) until the server
   * ends it; the connection closes when `signal` aborts or the reader stops early.
   */
  async *events(runId: string, after: number, signal: AbortSignal): AsyncGenerator<StreamedEvent> {
    const response = await this.send(`/api/runs/${encodeURIComponent(runId)}/events`, {
      headers: {
        ...this.authorization(),
        accept: 'text/event-stream',
        ...(after > 0 ? { 'last-event-id': String(after) } : {}),
      },
      signal,
    });
    if (!response.ok) throw this.refusal(response.status, await this.parse(response));
    if (response.body === null) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk, { stream: true });
      // SSE messages end with a blank line; the server writes `\n` line ends.
      const messages = buffer.split('\n\n');
      buffer = messages.pop() ?? '';
      for (const message of messages) {
        const json = dataOf(message);
        if (json !== undefined) yield { json, event: JSON.parse(json) as MissionEvent };
      }
    }
  }

  private authorization(): Record<string, string> {
    return this.token === undefined ? {} : { authorization: `Bearer ${this.token}` };
  }

  private async send(
    path: string,
    init: Parameters<typeof transportFetch>[1],
  ): Promise<TransportResponse> {
    try {
      return await transportFetch(`${this.server}${path}`, init);
    } catch (error) {
      if (init?.signal?.aborted === true) throw error;
      throw unreachable(this.server, error);
    }
  }

  /** The answer's JSON object; an answer that is not one is not from `sortie serve`. */
  private async parse(response: TransportResponse): Promise<Record<string, unknown>> {
    const text = await response.text();
    try {
      const value = JSON.parse(text) as unknown;
      if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
    } catch {
      // Said below.
    }
    throw new ServeRequestError(
      `${this.server} answered ${response.status} without sortie serve's JSON: is it a sortie server?`,
      response.status,
    );
  }

  private refusal(status: number, answer: Record<string, unknown>): ServeRequestError {
    if (status === 401) {
      return new ServeRequestError(
        `the sortie server at ${this.server} wants its token: give it with --token or SORTIE_SERVE_TOKEN`,
        status,
      );
    }
    const error = answer.error as { message?: unknown } | undefined;
    const message = typeof error?.message === 'string' ? error.message : `status ${status}`;
    return new ServeRequestError(`the sortie server at ${this.server}: ${message}`, status);
  }
}

/** The data of one SSE message (its `data:` lines joined), if it has any. */
function dataOf(message: string): string | undefined {
  const lines = message
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5));
  return lines.length === 0 ? undefined : lines.join('\n');
}
