/**
 * `runMission` and `resumeMission` as the package exports them: the run layer's, given the
 * trace export the `otel` option or the OpenTelemetry variables ask for (run/ cannot load the
 * exporter itself). A run without either loads no OpenTelemetry code. Traces' one warning goes
 * to `process.emitWarning`, which an application can listen to.
 */
import type { Project } from '../run/project.ts';
import {
  resumeMission as resumeMissionOf,
  runMission as runMissionOf,
  type MissionRun,
  type MissionRunOptions,
  type ResumeOptions,
} from '../run/mission-run.ts';
import { runTracesOpener } from './run-traces.ts';

function warn(message: string): void {
  process.emitWarning(message, 'SortieTraceWarning');
}

/** Starts a mission of an opened project; returns at once, before the first event. */
export function runMission(project: Project, options: MissionRunOptions = {}): MissionRun {
  return runMissionOf(project, options, runTracesOpener(options.otel, process.env, warn));
}

/**
 * Continues a failed, cancelled or interrupted run from its journal in the state directory
 * (like `sortie resume`): the run keeps its id; succeeded tasks are taken from the journal.
 * Rejects when the run cannot be resumed (no such run, another process still writes it, it
 * succeeded, a protected or file input is missing from `inputs`).
 */
export function resumeMission(
  project: Project,
  runIdOrPrefix: string,
  options: ResumeOptions = {},
): Promise<MissionRun> {
  const traces = runTracesOpener(options.otel, process.env, warn);
  return resumeMissionOf(project, runIdOrPrefix, options, traces);
}
