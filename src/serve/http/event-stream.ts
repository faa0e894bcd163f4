/**
 * `GET /api/runs/{id}/events`: a run's events as Server-Sent Events, each the object
 * `sortie run --json` prints (the journal's encoding), its `seq` as the event id. From the
 * first event (or after `Last-Event-ID`), then live until the run ends; a run that has ended
 * is read from its journal, and so are the earlier sessions of a resumed run before its live
 * events (a session's seqs go on from the last one's, so ids hold across the boundary). The
 * events were redacted when the run emitted them. A comment line every `keepAliveMs` keeps a
 * quiet stream (a paused run) from being cut by proxies' idle timeouts.
 */
import { access } from 'node:fs/promises';
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { isJournaled } from '../../base/events.ts';
import { runPaths } from '../../journal/paths.ts';
import { journalEvents } from '../../journal/reader.ts';
import { encodeEvent } from '../../journal/writer.ts';
import type { RunService } from '../run-service.ts';
import type { SchedulerClock } from '../scheduler-clock.ts';
import type { EncodedEvent, ServedRun } from '../served-run.ts';
import { RUN_ID } from './api-routes.ts';
import { jsonError } from './guards.ts';
import { keepAlive } from './keep-alive.ts';

/** What the event streams need besides the request. */
export interface EventStreamOptions {
  service: RunService;
  stateDir: string;
  clock: SchedulerClock;
  /** The time between keep-alive comments. */
  keepAliveMs: number;
}

/** The seq after which to start: `Last-Event-ID` (or `?after=`), else 0 (from the first). */
function startAfter(context: Context): number {
  const given = context.req.header('last-event-id') ?? context.req.query('after') ?? '0';
  const seq = Number(given);
  return Number.isInteger(seq) && seq > 0 ? seq : 0;
}

/** The event stream of a run. */
export async function eventStream(
  context: Context,
  options: EventStreamOptions,
): Promise<Response> {
  const { service, stateDir } = options;
  const runId = context.req.param('id') ?? '';
  if (!RUN_ID.test(runId)) return jsonError(context, 404, 'unknown_run', `no run ${runId}`);
  const after = startAfter(context);
  const queued = service.queued(runId) !== undefined;
  const run = service.find(runId);
  const journal = runPaths(stateDir, runId).journal;
  if (!queued && run === undefined && !(await journalExists(journal))) {
    return jsonError(context, 404, 'unknown_run', `no run ${runId} in this state directory`);
  }
  return streamSSE(context, async (stream) => {
    const stop = keepAlive(options.clock, options.keepAliveMs, () => {
      void stream.write(': keep-alive\n\n');
    });
    try {
      const started = await service.started(runId);
      if (started?.live === true) await streamLive(stream, started, after, journal);
      else await streamJournal(stream, journal, after);
    } finally {
      stop();
    }
  });
}

function journalExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function send(stream: SSEStreamingApi, event: EncodedEvent): Promise<void> {
  return stream.writeSSE({ id: String(event.seq), data: event.json });
}

/**
 * The run's earlier sessions' events from its journal (a resumed run), its events so far, then
 * each as it comes, until it ends or the client leaves.
 */
async function streamLive(
  stream: SSEStreamingApi,
  run: ServedRun,
  after: number,
  journal: string,
): Promise<void> {
  let ended = false;
  let wake: (() => void) | undefined;
  // The copy and the listener in one step: no event is missed or sent twice.
  const pending = run.encoded.slice();
  const remove = run.listen((event) => {
    if (event === 'end') ended = true;
    else pending.push(event);
    wake?.();
  });
  stream.onAbort(() => {
    ended = true;
    wake?.();
  });
  let earlierSent = false;
  try {
    for (;;) {
      // This session's first event says where the journal's earlier sessions end: until it
      // comes (or the run ends without one), nothing is sent.
      if (!earlierSent && (pending.length > 0 || ended)) {
        earlierSent = true;
        const firstLive = pending[0]?.seq ?? Number.POSITIVE_INFINITY;
        // A run that could not start may have no journal at all.
        if (firstLive > after + 1 && (await journalExists(journal))) {
          await streamJournal(stream, journal, after, firstLive);
        }
      }
      for (let event = earlierSent ? pending.shift() : undefined; event; event = pending.shift()) {
        if (event.seq > after) await send(stream, event);
      }
      if (ended || stream.aborted) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    remove();
  }
}

/** A run's journaled events after `after` and before `before` (default: to its end). */
async function streamJournal(
  stream: SSEStreamingApi,
  journal: string,
  after: number,
  before = Number.POSITIVE_INFINITY,
): Promise<void> {
  for await (const { event } of journalEvents(journal)) {
    if (stream.aborted || event.seq >= before) return;
    if (event.seq > after && isJournaled(event)) {
      await send(stream, { seq: event.seq, json: encodeEvent(event).trimEnd() });
    }
  }
}
