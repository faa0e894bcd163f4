/**
 * `GET /api/runs/{id}/events`: a run's events as Server-Sent Events, each the object
 * `sortie run --json` prints (the journal's encoding), its `seq` as the event id. From the
 * first event (or after `Last-Event-ID`), then live until the run ends; a run that has ended
 * is read from its journal. The events were redacted when the run emitted them.
 */
import { access } from 'node:fs/promises';
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import { isJournaled } from '../../base/events.ts';
import { runPaths } from '../../journal/paths.ts';
import { journalEvents } from '../../journal/reader.ts';
import { encodeEvent } from '../../journal/writer.ts';
import type { RunService } from '../run-service.ts';
import type { EncodedEvent, ServedRun } from '../served-run.ts';
import { RUN_ID } from './api-routes.ts';
import { jsonError } from './guards.ts';

/** The seq after which to start: `Last-Event-ID` (or `?after=`), else 0 (from the first). */
function startAfter(context: Context): number {
  const given = context.req.header('last-event-id') ?? context.req.query('after') ?? '0';
  const seq = Number(given);
  return Number.isInteger(seq) && seq > 0 ? seq : 0;
}

/** The event stream of a run. */
export async function eventStream(
  context: Context,
  service: RunService,
  stateDir: string,
): Promise<Response> {
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
    const started = await service.started(runId);
    if (started?.live === true) await streamLive(stream, started, after);
    else await streamJournal(stream, journal, after);
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

/** The run's events so far, then each as it comes, until it ends or the client leaves. */
async function streamLive(stream: SSEStreamingApi, run: ServedRun, after: number): Promise<void> {
  const pending: EncodedEvent[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  // The copy and the listener in one step: no event is missed or sent twice.
  const sofar = run.encoded.slice();
  const remove = run.listen((event) => {
    if (event === 'end') ended = true;
    else pending.push(event);
    wake?.();
  });
  stream.onAbort(() => {
    ended = true;
    wake?.();
  });
  try {
    for (const event of sofar) if (event.seq > after) await send(stream, event);
    for (;;) {
      for (let event = pending.shift(); event !== undefined; event = pending.shift()) {
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

/** An ended run's events from its journal. */
async function streamJournal(stream: SSEStreamingApi, journal: string, after: number) {
  for await (const { event } of journalEvents(journal)) {
    if (stream.aborted) return;
    if (event.seq > after && isJournaled(event)) {
      await send(stream, { seq: event.seq, json: encodeEvent(event).trimEnd() });
    }
  }
}
