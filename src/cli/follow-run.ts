/**
 * Following a served run's event stream to the run's end: each event once, in order. A stream
 * that stops before the run has ended (the server restarted, a proxy or the client's idle
 * timeout cut it) is opened again after the last event seen (`Last-Event-ID`), a few times;
 * a refusal of the server (no such run, the token) ends the following at once.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { UsageError } from '../base/errors.ts';
import type { Outcome } from '../base/events.ts';
import { reasonOf } from '../base/reason.ts';
import { ServeRequestError, type ServeClient, type StreamedEvent } from './serve-client.ts';

/** Times in a row a stream is opened again without an event in between. */
const RECONNECTS = 5;
/** The wait before a stream is opened again. */
const RECONNECT_DELAY_MS = 1000;

/**
 * Feeds `onEvent` until the run ends; resolves with its outcome, or undefined once `signal`
 * aborts (the person detached). Rejects with a UsageError when the server cannot be followed.
 */
export async function followRun(
  client: ServeClient,
  runId: string,
  onEvent: (streamed: StreamedEvent) => void,
  signal: AbortSignal,
): Promise<Outcome | undefined> {
  let after = 0;
  let outcome: Outcome | undefined;
  let lost: string | undefined;
  for (let attempts = 0; attempts <= RECONNECTS; attempts++) {
    try {
      for await (const streamed of client.events(runId, after, signal)) {
        const { event } = streamed;
        after = event.seq;
        attempts = 0;
        // A resumed run's journal holds the run.finished of its earlier sessions.
        if (event.type === 'run.finished') outcome = event.outcome;
        else if (event.type === 'run.started') outcome = undefined;
        onEvent(streamed);
      }
      if (outcome !== undefined) return outcome;
      lost = 'the stream ended before the run did';
    } catch (error) {
      if (signal.aborted) return undefined;
      if (error instanceof ServeRequestError) throw error;
      lost = reasonOf(error);
    }
    if (signal.aborted) return undefined;
    await delay(RECONNECT_DELAY_MS, undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return undefined;
  }
  throw new UsageError(`lost run ${runId} on the sortie server at ${client.server}: ${lost}`);
}
