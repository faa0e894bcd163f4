/**
 * `runMission`, the programmatic API's second step: run a mission of an opened project with
 * the same wiring as `sortie run` (journal under the state directory, cassettes, gate,
 * cancellation), publish its events to subscribers, and settle with its result.
 */
import type { FinalStatus, RunResult, TaskResult } from '../actors/contracts.ts';
import type { MissionEvent } from '../base/events.ts';
import { ProjectConfigError } from '../config/load-project.ts';
import { makeDirectory } from '../base/make-directory.ts';
import { runsDirectory, resolveStateDir } from '../journal/paths.ts';
import type { ModelClientFactory } from '../models/create-client.ts';
import type { StepGate } from '../runtime/gate.ts';
import { lazyJournal } from './lazy-journal.ts';
import { runClients, type RunClients } from './model-clients.ts';
import { pickMission } from './pick-mission.ts';
import type { Project } from './project.ts';
import { createRunRedactor } from './run-redactor.ts';
import { newRunId, startRun } from './start-run.ts';

export type { FinalStatus, RunResult, TaskResult };

/** How to run a mission. */
export interface MissionRunOptions {
  /** The mission to run; may be left out when the project has only one. */
  mission?: string;
  /** Mission inputs in their types (`{ quotes: [...] }`); defaults are applied and checked. */
  inputs?: Record<string, unknown>;
  /** Where runs are journaled (default: `SORTIE_HOME`, else `.sortie/` in the project). */
  stateDir?: string;
  /** Aborting it cancels the run, like `cancel()`. */
  signal?: AbortSignal;
  /** Awaited before every model request and tool call (default: never holds). */
  gate?: StepGate;
  /** Model clients replacing the real providers (when given, no API key is needed). */
  clients?: ModelClientFactory;
  /** Answer every model request from this cassette file (no network, no API key). */
  replayModel?: string;
  /** Record every model turn into this cassette file (secrets redacted). */
  record?: string;
  /** Keep running unrelated tasks after a failure (`--keep-going`). */
  keepGoing?: boolean;
  /** Follow routes to other missions (default true). */
  chain?: boolean;
  /** Write the run's journal (default true), so `sortie show` and `sortie resume` find it. */
  journal?: boolean;
  /** Receives every event from the first; like `subscribe` before anything happened. */
  onEvent?: (event: MissionEvent) => void;
}

/** A started mission run. */
export interface MissionRun {
  readonly runId: string;
  /**
   * Adds a listener for the run's events (the `MissionEvent` union, in order) and returns the
   * function that removes it. Listeners added in the same tick as `runMission` get every event.
   */
  subscribe(listener: (event: MissionEvent) => void): () => void;
  /**
   * The run's result once it has finished and its journal is written. Rejects when the run
   * cannot start (a project with errors, an unknown mission, invalid inputs, a missing
   * variable: ConfigError or UsageError) or its journal cannot be written.
   */
  readonly result: Promise<RunResult>;
  /** Cancels the run: in-flight requests and tools are aborted, the result says `cancelled`. */
  cancel(): void;
}

/** Starts a mission of an opened project; returns at once, before the first event. */
export function runMission(project: Project, options: MissionRunOptions = {}): MissionRun {
  const runId = newRunId();
  const listeners = new Set<(event: MissionEvent) => void>();
  if (options.onEvent !== undefined) listeners.add(options.onEvent);
  const controller = new AbortController();
  if (options.signal?.aborted === true) controller.abort();
  options.signal?.addEventListener('abort', () => controller.abort(), { once: true });
  const publish = (event: MissionEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // As on the run's bus: a listener's failure never breaks the run or other listeners.
      }
    }
  };
  return {
    runId,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    result: run(project, options, { runId, publish, controller }),
    cancel: () => controller.abort(),
  };
}

interface RunWiring {
  runId: string;
  publish: (event: MissionEvent) => void;
  controller: AbortController;
}

async function run(
  project: Project,
  options: MissionRunOptions,
  wiring: RunWiring,
): Promise<RunResult> {
  if (!project.ok)
    throw new ProjectConfigError([...project.diagnostics], project.root, new Map(project.sources));
  const mission = pickMission(project.config, options.mission);
  const inputs = options.inputs ?? {};
  const stateDir = resolveStateDir({
    ...(options.stateDir !== undefined ? { stateDir: options.stateDir } : {}),
    env: process.env,
    projectRoot: project.root,
  });
  await makeDirectory(runsDirectory(stateDir));
  const redact = createRunRedactor(project.config, [{ mission, inputs }]);
  const stop = (): void => wiring.controller.abort();
  const clients: RunClients =
    options.clients !== undefined
      ? { clients: options.clients, close: () => Promise.resolve() }
      : await runClients(
          {
            ...(options.replayModel !== undefined ? { replayModel: options.replayModel } : {}),
            ...(options.record !== undefined ? { record: options.record } : {}),
          },
          redact,
          () => undefined,
          stop,
        );
  const journal = options.journal === false ? undefined : lazyJournal(stateDir, stop);
  try {
    const handle = startRun({
      config: project.config,
      mission: mission.name,
      inputs,
      stateDir,
      runId: wiring.runId,
      signal: wiring.controller.signal,
      functionTools: project.functionTools,
      subscribers: [...(journal !== undefined ? [journal.subscriber] : []), wiring.publish],
      ...(options.gate !== undefined ? { gate: options.gate } : {}),
      ...(clients.clients !== undefined ? { clients: clients.clients } : {}),
      ...(options.keepGoing !== undefined ? { keepGoing: options.keepGoing } : {}),
      ...(options.chain !== undefined ? { chain: options.chain } : {}),
    });
    return await handle.done;
  } finally {
    await Promise.all([journal?.close(), clients.close()]);
  }
}
