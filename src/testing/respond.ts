/**
 * Writes one scripted answer to an HTTP response: errors, resets, delays, stalls, truncated
 * streams and normal replies. Timers are registered with `Timers` so `close()` can stop them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ProtocolHandler, TurnContext } from './protocol.ts';
import type { ScriptTurn } from './script.ts';

/** Pending timers of a server, cleared together on close. */
export class Timers {
  private readonly pending = new Set<ReturnType<typeof setTimeout>>();

  /** Resolves after `milliseconds` unless cleared first (then never resolves). */
  wait(milliseconds: number): Promise<void> {
    if (milliseconds <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, milliseconds);
      this.pending.add(timer);
    });
  }

  clear(): void {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
  }
}

export interface Answer {
  request: IncomingMessage;
  response: ServerResponse;
  handler: ProtocolHandler;
  turn: ScriptTurn;
  context: TurnContext;
  stream: boolean;
  timers: Timers;
}

/** How many frames a truncated or stalled stream sends before stopping. */
function leadingFrameCount(frames: string[]): number {
  return Math.max(1, Math.min(2, frames.length - 1));
}

function isGone(response: ServerResponse): boolean {
  return response.destroyed || response.writableEnded;
}

/** Answers a request according to its script turn. */
export async function answer(options: Answer): Promise<void> {
  const { request, response, handler, turn, timers } = options;
  if (turn.reset === true) {
    request.socket.destroy();
    return;
  }
  await turn.heldUntil?.catch(() => undefined);
  await timers.wait(turn.delayMs ?? 0);
  if (isGone(response)) return;
  if (turn.error !== undefined) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (turn.error.retryAfter !== undefined) headers['retry-after'] = turn.error.retryAfter;
    if (turn.error.retryAfterMs !== undefined)
      headers['retry-after-ms'] = String(turn.error.retryAfterMs);
    const message = turn.error.message ?? `scripted error ${turn.error.status}`;
    response.writeHead(turn.error.status, headers);
    response.end(JSON.stringify(handler.errorBody(turn.error.status, message)));
    return;
  }
  if (options.stream) await answerStream(options);
  else await answerJson(options);
}

/**
 * The frames of a server-sent-event recording, each with its blank-line terminator, line
 * endings kept (Gemini sends `\r\n`, the others `\n`).
 */
export function splitSseFrames(recording: string): string[] {
  return (recording.match(/[\s\S]*?(?:\r?\n\r?\n|$)/g) ?? []).filter((frame) => frame !== '');
}

async function answerStream({ response, handler, turn, context, timers }: Answer): Promise<void> {
  const frames = turn.frames ?? handler.stream(turn, context);
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  const lead = leadingFrameCount(frames);
  if (turn.truncate === 'mid-frame') {
    // Whole frames, then half of the next one: the body ends inside an event's JSON.
    const whole = Math.min(lead, frames.length - 1);
    for (const frame of frames.slice(0, whole)) response.write(frame);
    const cut = frames[whole] ?? '';
    response.end(cut.slice(0, Math.floor(cut.length / 2)));
    return;
  }
  if (turn.truncate === true || turn.stallMs !== undefined) {
    for (const frame of frames.slice(0, lead)) response.write(frame);
    if (turn.truncate === true) {
      response.end();
      return;
    }
    turn.stalled?.();
    await timers.wait(turn.stallMs ?? 0);
    if (isGone(response)) return;
    for (const frame of frames.slice(lead)) response.write(frame);
  } else {
    for (const frame of frames) response.write(frame);
  }
  response.end();
}

async function answerJson({ response, handler, turn, context, timers }: Answer): Promise<void> {
  const body = JSON.stringify(handler.reply(turn, context));
  response.writeHead(200, { 'content-type': 'application/json' });
  if (turn.truncate !== undefined && turn.truncate !== false) {
    // A body cut in half, then a dropped connection: what a failing proxy produces.
    response.write(body.slice(0, Math.floor(body.length / 2)));
    response.destroy();
    return;
  }
  if (turn.stallMs !== undefined) {
    response.write(body.slice(0, 1));
    turn.stalled?.();
    await timers.wait(turn.stallMs);
    if (isGone(response)) return;
    response.end(body.slice(1));
    return;
  }
  response.end(body);
}
