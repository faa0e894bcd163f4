/**
 * `runMission` and `resumeMission`, the programmatic API's second step: run a mission of an
 * opened project (or continue a journaled run) with the same wiring as `sortie run` (journal
 * under the state directory, cassettes, gate, cancellation, a run stopped when its journal or
 * cassette cannot be written), publish its events to subscribers, and settle with its result.
 */
import type { FinalStatus, RunResult, RunResultJson, TaskResult } from '../actors/contracts.ts';
import type { MissionEvent } from '../base/events.ts';
import { followSignal } from '../base/abort.ts';
import {
  executeMissionRun,
  stateDirectoryOf,
  type HumanListAnswer,
  type MissionStart,
  type RunSettings,
  type RunTracesOpener,
} from './execute-mission-run.ts';
import { pickMission } from './pick-mission.ts';
import type { Project } from './project.ts';
import { missionToContinue, readRunState, resumedInputs } from './resume-state.ts';
import { newRunId } from './start-run.ts';

export type { FinalStatus, HumanListAnswer, RunResult, RunResultJson, RunSettings, TaskResult };

/** How to run a mission. */
export interface MissionRunOptions extends RunSettings {
  /** The mission to run; may be left out when the project has only one. */
  mission?: string;
  /** Mission inputs in their types (`{ quotes: [...] }`); defaults are applied and checked. */
  inputs?: Record<string, unknown>;
}

/** How to continue a journaled run. */
export interface ResumeOptions extends RunSettings {
  /**
   * Inputs the journal does not keep: protected and file inputs, which a required one needs
   * again. Others given here replace the journaled values.
   */
  inputs?: Record<string, unknown>;
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
   * variable: ConfigError or UsageError) or its journal or cassette could not be written
   * (a UsageError saying how to resume; the run was stopped).
   */
  readonly result: Promise<RunResult>;
  /** Cancels the run: in-flight requests and tools are aborted, the result says `cancelled`. */
  cancel(): void;
}

/**
 * Starts a mission of an opened project; returns at once, before the first event. `traces`
 * opens its trace export (the package's entry gives it: run/ loads no exporter).
 */
export function runMission(
  project: Project,
  options: MissionRunOptions = {},
  traces?: RunTracesOpener,
): MissionRun {
  return startMissionRun(project, options, newRunId(), traces, () => {
    const mission = pickMission(project.config, options.mission);
    return Promise.resolve({ mission, inputs: options.inputs ?? {} });
  });
}

/**
 * Continues a failed, cancelled or interrupted run from its journal in the state directory
 * (like `sortie resume`): the run keeps its id; succeeded tasks are taken from the journal.
 * Rejects when the run cannot be resumed (no such run, another process still writes it, it
 * succeeded, a protected or file input is missing from `inputs`).
 */
export async function resumeMission(
  project: Project,
  runIdOrPrefix: string,
  options: ResumeOptions = {},
  traces?: RunTracesOpener,
): Promise<MissionRun> {
  const stateDir = await stateDirectoryOf(project, options);
  const state = await readRunState(stateDir, runIdOrPrefix);
  const mission = missionToContinue(project.config, state);
  const inputs = resumedInputs(mission, state, options.inputs ?? {});
  const start: MissionStart = { mission, inputs, resume: state };
  return startMissionRun(project, options, state.runId, traces, () => Promise.resolve(start));
}

function startMissionRun(
  project: Project,
  options: RunSettings,
  runId: string,
  traces: RunTracesOpener | undefined,
  choose: () => Promise<MissionStart>,
): MissionRun {
  const listeners = new Set<(event: MissionEvent) => void>();
  if (options.onEvent !== undefined) listeners.add(options.onEvent);
  const controller = new AbortController();
  const cancel = (): void => controller.abort();
  // A caller's signal may outlive many runs: each lets go of it when it ends.
  const release = followSignal(options.signal, controller, () => undefined);
  const publish = (event: MissionEvent): void => {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // As on the run's bus: a listener's failure never breaks the run or other listeners.
      }
    }
  };
  const result = executeMissionRun(project, options, {
    runId,
    publish,
    signal: controller.signal,
    choose,
    ...(traces !== undefined ? { traces } : {}),
  });
  result.then(release, release);
  return {
    runId,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    result,
    cancel,
  };
}
