/**
 * `sortie attach RUN_ID`: a run of `sortie serve`, followed through its event stream. On a
 * terminal the run's TUI (the one `sortie run` shows, fed the served events), whose pause,
 * step, continue, breakpoints and answers act on the server's run and whose `q` detaches
 * while the run goes on; otherwise, or with --plain / --json, its log to the run's end. Exit
 * code: the run's (0, 1, 130) when it ended while attached, 0 when the person detached first.
 */
import { ExitCode, exitCodeOf } from '../base/exit-codes.ts';
import type { Outcome } from '../base/events.ts';
import type { AttachFlags } from './attach.ts';
import { createEventHub } from './event-hub.ts';
import { followRun } from './follow-run.ts';
import { useColor, type CliIo } from './io.ts';
import { chooseOutputMode } from './output-mode.ts';
import { createPlainPrinter } from './plain/index.ts';
import { RemoteGate } from './remote-gate.ts';
import { RemoteQuestions } from './remote-questions.ts';
import { ServeClient, serverUrl } from './serve-client.ts';

/** What `sortie attach` was given. */
export interface AttachRequest {
  runId: string;
  flags: AttachFlags;
}

/** Follows a served run; returns the exit code. */
export async function attachCommand(request: AttachRequest, io: CliIo): Promise<number> {
  const { runId, flags } = request;
  const mode = chooseOutputMode({ json: flags.json, plain: flags.plain }, io);
  const token = (flags.token ?? io.env.SORTIE_SERVE_TOKEN ?? '') || undefined;
  const client = new ServeClient(serverUrl(flags.server), token);
  // The server, the token and the run are checked before anything is shown.
  const run = await client.json('GET', `/api/runs/${encodeURIComponent(runId)}`);
  const controller = new AbortController();
  if (mode === 'json') {
    const outcome = await followRun(
      client,
      runId,
      ({ json }) => io.stdout(`${json}\n`),
      controller.signal,
    );
    return exitCodeOf(outcome ?? 'cancelled');
  }
  if (mode === 'plain') {
    const printer = createPlainPrinter({ write: io.stdout, color: useColor(io, 'stdout') });
    const outcome = await followRun(
      client,
      runId,
      ({ event }) => printer.onEvent(event),
      controller.signal,
    );
    printer.printSummary();
    return exitCodeOf(outcome ?? 'cancelled');
  }
  const live = run.status === 'running' || run.status === 'queued';
  return attachInTui(client, runId, live, io);
}

/** The TUI on the served run until the person leaves; the run's exit code if it ended. */
async function attachInTui(
  client: ServeClient,
  runId: string,
  live: boolean,
  io: CliIo,
): Promise<number> {
  // Ink draws over the terminal: a failed request is told once the TUI is gone.
  const problems: string[] = [];
  const onError = (message: string): void => {
    problems.push(message);
  };
  const gate = new RemoteGate(client, runId, onError);
  const questions = new RemoteQuestions(client, runId, onError);
  // Another client may have paused it or set breakpoints; a queued run has its gate later.
  if (live) await gate.load().catch(() => undefined);
  const hub = createEventHub();
  const controller = new AbortController();
  const { renderTui } = await import('../tui/index.ts');
  const tui = renderTui({
    subscribe: hub.subscribe,
    ...(live ? { gate, human: questions } : {}),
    // Leaving never cancels a served run: `POST /api/runs/{id}/cancel` does.
    cancel: () => undefined,
    attached: true,
    title: `sortie · attach ${runId}`,
    color: useColor(io, 'stdout'),
    stdout: process.stdout,
    stdin: process.stdin,
  });
  let failure: unknown;
  const following = followRun(
    client,
    runId,
    ({ event }) => {
      gate.observe(event);
      questions.observe(event);
      hub.publish(event);
    },
    controller.signal,
  ).catch((error: unknown): Outcome | undefined => {
    failure = error;
    tui.unmount();
    return undefined;
  });
  await tui.waitUntilExit();
  controller.abort();
  const outcome = await following;
  for (const problem of problems) io.stderr(`warning: ${problem}\n`);
  if (failure !== undefined) throw failure;
  return outcome === undefined ? ExitCode.ok : exitCodeOf(outcome);
}
