/**
 * The one wiring of a run, for `sortie run`, `resume` and `fork`, `runMission` and
 * `resumeMission`, and served runs: model clients (given, a cassette, a mock model or the
 * providers), the journal, the trace export, the item queue, and the storage watch that stops a
 * run whose files cannot be written. Callers plug in what is theirs: more listeners (the TUI,
 * the line log, the library's subscribers) and how to follow the run to its end.
 */
import type { RunHandle, RunOptions, RunResult } from '../actors/contracts.ts';
import type { MissionEvent } from '../base/events.ts';
import type { Config, MissionConfig } from '../config/config-types.ts';
import type { RunJournalState } from '../journal/restore.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import { lazyJournal } from './lazy-journal.ts';
import { runClients, type CassetteFlags, type RunClients } from './run-clients.ts';
import { createRunRedactor } from './run-redactor.ts';
import { StorageWatch } from './run-storage.ts';
import { startRun } from './start-run.ts';

/** The mission a run starts with, its inputs, and the journal it continues, if any. */
export interface MissionStart {
  mission: MissionConfig;
  inputs: Record<string, unknown>;
  resume?: RunJournalState;
}

/** A run's trace export: fed the run's events, closed once it has ended. */
export interface RunTraceSink {
  add(event: MissionEvent): void;
  /** The trace context an item's queue job carries (`--queue`), when the export keeps one. */
  traceparent?(item: { mission: string; task: string; index: number }): string | undefined;
  /** Sends the last spans; never rejects, and waits at most the export timeout. */
  close(): Promise<void>;
}

/**
 * Opens a run's trace export, or resolves undefined when none is asked for. The layers above
 * give it (src/observe decides and loads the exporter): run/ never loads OpenTelemetry code.
 */
export type RunTracesOpener = (
  stateDir: string,
  resume: RunJournalState | undefined,
) => Promise<RunTraceSink | undefined>;

/** Everything one run is wired with. */
export interface WiredRun extends Pick<
  RunOptions,
  'gate' | 'keepGoing' | 'chain' | 'signal' | 'chat'
> {
  config: Config;
  functionTools?: RunOptions['functionTools'];
  /** The absolute state directory. */
  stateDir: string;
  runId: string;
  start: MissionStart;
  /** The model source when `clients` is not given: a cassette or mock model, else providers. */
  cassettes: CassetteFlags;
  /** Model clients replacing every other source. */
  clients?: ModelClientFactory;
  /** Write the run's journal (default true). */
  journal?: boolean;
  human: NonNullable<RunOptions['human']>;
  /** The caller's listeners, after the journal and before the trace export. */
  listeners: ReadonlyArray<(event: MissionEvent) => void>;
  traces?: RunTracesOpener;
  /** `--queue`: the Redis URL the run's items go through, and whether workers hold at the gate. */
  queue?: { url: string; debugging: boolean };
  /** Hears lenient replay mismatches. */
  warn?: (message: string) => void;
  /** Writes a fork's journal once the model clients are ready, the last check before starting. */
  create?: () => Promise<void>;
  /** Follows the started run to its result (the TUI until it closes); default `handle.done`. */
  follow?: (handle: RunHandle) => Promise<RunResult>;
  /** How to continue the run, said when its journal or cassette could not be written. */
  resumeCommand: string;
}

/** Runs to the end; rejects when the run cannot start or its files could not be written. */
export async function runWired(run: WiredRun): Promise<RunResult> {
  const { start, stateDir } = run;
  const storage = new StorageWatch();
  const clients: RunClients =
    run.clients !== undefined
      ? { clients: run.clients, close: () => Promise.resolve() }
      : await runClients(
          run.cassettes,
          createRunRedactor(run.config, [start]),
          run.warn ?? (() => undefined),
          storage.failed,
        );
  try {
    await run.create?.();
  } catch (error) {
    await clients.close();
    throw error;
  }
  const journal =
    run.journal === false
      ? undefined
      : lazyJournal(stateDir, storage.failed, { fresh: start.resume === undefined });
  const traces = await run.traces?.(stateDir, start.resume);
  let result: RunResult;
  let succeeded = false;
  let queue: Awaited<ReturnType<typeof openQueue>>;
  try {
    queue = await openQueue(run, journal, traces);
    const handle = startRun({
      config: run.config,
      mission: start.mission.name,
      inputs: start.inputs,
      stateDir,
      runId: run.runId,
      signal: run.signal,
      functionTools: run.functionTools,
      gate: run.gate,
      keepGoing: run.keepGoing,
      chain: run.chain,
      clients: clients.clients,
      resume: start.resume,
      human: run.human,
      itemQueue: queue,
      ...(run.chat !== undefined ? { chat: run.chat } : {}),
      subscribers: [
        ...(journal !== undefined ? [journal.subscriber] : []),
        ...run.listeners,
        ...(traces !== undefined ? [(event: MissionEvent) => traces.add(event)] : []),
      ],
    });
    storage.attach((why) => {
      handle.bus.emit({ type: 'warning', actor: 'run', code: 'run.storage', message: why });
      handle.cancel(why);
    });
    result = await (run.follow?.(handle) ?? handle.done);
    succeeded = result.status === 'succeeded';
  } finally {
    // A run that did not succeed keeps its jobs and events in Redis for `resume --queue`.
    await queue?.close(succeeded);
    await storage.close([
      () => journal?.close() ?? Promise.resolve(),
      () => clients.close(),
      () => traces?.close() ?? Promise.resolve(),
    ]);
  }
  storage.throwIfFailed(run.runId, run.resumeCommand);
  return result;
}

/** `--queue`: the run's item queue, opened before the run starts (BullMQ loads only then). */
async function openQueue(
  run: WiredRun,
  journal: ReturnType<typeof lazyJournal> | undefined,
  traces: RunTraceSink | undefined,
) {
  if (run.queue === undefined) return undefined;
  const { openRunQueue } = await import('./queue-run.ts');
  const traceparent = traces?.traceparent?.bind(traces);
  return openRunQueue({
    ...run.queue,
    runId: run.runId,
    root: run.config.root,
    stateDir: run.stateDir,
    mission: run.start.mission,
    inputs: run.start.inputs,
    ...(journal !== undefined ? { journaled: () => journal.flush() } : {}),
    ...(run.start.resume?.relayed !== undefined ? { relayed: run.start.resume.relayed } : {}),
    ...(traceparent !== undefined ? { traceparent } : {}),
  });
}
