/**
 * A served run's event stream: a resumed run's stream starts with its earlier sessions' events
 * (from the journal) and goes on with the live ones under one run of ids, so `Last-Event-ID`
 * works across the boundary; a stream with nothing to send sends a keep-alive comment on the
 * server's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ScriptedModelServer } from '../../src/testing/index.ts';
import { callsSoFar } from '../actors/resume/resume-fixture.ts';
import { readEvents, type StreamedEvent } from '../e2e/serve-harness.ts';
import {
  deferred,
  holdingModel,
  projectFolder,
  startGreeting,
  startInProcess,
  type Deferred,
} from './in-process-serve.ts';
import { ManualClock } from './schedule-clock.ts';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Every hold is let go at the end of the test, so the model server can close. */
function hold(): Deferred {
  const held = deferred();
  cleanups.push(async () => held.resolve());
  return held;
}

async function folder(): Promise<{ project: string; stateDir: string }> {
  const made = await projectFolder();
  return made;
}

async function model(holding: Parameters<typeof holdingModel>[0]): Promise<ScriptedModelServer> {
  const server = await holdingModel(holding);
  cleanups.push(() => server.close());
  return server;
}

/** The stream's events up to the first model request of the resumed session. */
function untilResumedRequest(): (event: Record<string, unknown>) => boolean {
  let resumed = false;
  return (event) => {
    if (event.type === 'run.started' && event.resumed === true) resumed = true;
    return resumed && event.type === 'model.request';
  };
}

/** A raw event stream read as text, with a wait for the text to reach a pattern. */
async function rawStream(
  url: string,
): Promise<{ text: () => string; until(pattern: RegExp): Promise<void>; ended: Promise<void> }> {
  const response = await fetch(url);
  if (response.body === null) throw new Error(`no event stream: ${response.status}`);
  const decoder = new TextDecoder();
  let text = '';
  let waiter: { pattern: RegExp; resolve: () => void } | undefined;
  const ended = (async () => {
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      text += decoder.decode(chunk, { stream: true });
      if (waiter?.pattern.test(text) === true) waiter.resolve();
    }
  })();
  return {
    text: () => text,
    until: (pattern) =>
      pattern.test(text)
        ? Promise.resolve()
        : new Promise((resolve) => (waiter = { pattern, resolve })),
    ended,
  };
}

describe('the event stream of a served run', () => {
  it("a resumed run's stream sends its earlier sessions' events first, ids unbroken across them", async () => {
    const made = await folder();
    const firstHold = hold();
    const secondHold = hold();
    const arrivals = [deferred(), deferred()];
    let thirdTurns = 0;
    const scripted = await model((request) => {
      if (request.actor !== 'commander:hello' || callsSoFar(request.body) !== 2) return undefined;
      arrivals[thirdTurns]?.resolve();
      thirdTurns += 1;
      return (thirdTurns === 1 ? firstHold : secondHold).promise;
    });
    const first = await startInProcess(made, scripted);
    const runId = await startGreeting(first.url);
    await arrivals[0]?.promise;
    await first.stop();
    expect(first.lines.at(-1)).toBe(`run ${runId} cancelled · mission greet`);

    const second = await startInProcess(made, scripted);
    cleanups.push(() => second.stop());
    await arrivals[1]?.promise;
    const events = await readEvents(second, runId, untilResumedRequest());
    const ids = events.map((streamed) => Number(streamed.id));
    expect(ids).toEqual(ids.map((_, index) => index + 1));
    const starts = events.filter((streamed) => streamed.event.type === 'run.started');
    expect(starts.map((streamed) => streamed.event.resumed)).toEqual([false, true]);
    expect(events[0]?.event.type).toBe('run.started');
    expect(events.at(-1)?.event).toMatchObject({ type: 'model.request', turn: 3 });

    // From two events before the second session's first: the same events, the same ids.
    const boundary = Number(starts[1]?.id) - 1;
    const resumed = await readEvents(second, runId, untilResumedRequest(), {
      'last-event-id': String(boundary - 2),
    });
    const tail = (list: StreamedEvent[]): string[] => list.map((streamed) => streamed.id);
    expect(tail(resumed)).toEqual(tail(events.slice(boundary - 2)));
    expect(resumed[2]?.event).toMatchObject({ type: 'run.started', resumed: true });

    secondHold.resolve();
    expect(await second.line(new RegExp(`^run ${runId} (?!started)`))).toBe(
      `run ${runId} succeeded · mission greet`,
    );
  });

  it('sends a keep-alive comment every interval on the server clock while a run is quiet', async () => {
    const made = await folder();
    const release = hold();
    const arrived = deferred();
    const scripted = await model((request) => {
      if (request.actor !== 'commander:hello' || callsSoFar(request.body) !== 0) return undefined;
      arrived.resolve();
      return release.promise;
    });
    const clock = new ManualClock('2026-11-28T10:00:00Z');
    const served = await startInProcess(made, scripted, { clock, keepAliveMs: 15_000 });
    cleanups.push(() => served.stop());
    const runId = await startGreeting(served.url);
    await arrived.promise;
    const stream = await rawStream(`${served.url}/api/runs/${runId}/events`);
    await stream.until(/"type":"model\.request"[^\n]*\n(id: \d+\n)?\n/);
    clock.advanceTo('2026-11-28T10:00:14Z');
    clock.advanceTo('2026-11-28T10:00:15Z');
    release.resolve();
    await stream.ended;

    const messages = stream.text().split('\n\n');
    const request = messages.findIndex((message) => message.includes('"type":"model.request"'));
    expect(messages[request + 1]).toBe(': keep-alive');
    expect(messages.filter((message) => message.startsWith(':'))).toEqual([': keep-alive']);
    expect(messages.at(-2)).toMatch(/"type":"run\.finished"/);
    // The stream has ended: its keep-alive is gone from the clock.
    expect(clock.pending()).toBe(0);
  });
});
