/**
 * What the actors of one mission share besides the run services: the task graph, a read-only
 * view of the task states and activations (the mission machine's context is their one store),
 * the finished commanders and the question forks.
 */
import { variableValues } from '../../config/requirements.ts';
import type { MissionConfig, TaskConfig } from '../../config/config-types.ts';
import { SortieError } from '../../base/errors.ts';
import { perObject } from '../../base/per-object.ts';
import type { MissionJournal } from '../../journal/mission-journal.ts';
import { TaskGraph } from '../../runtime/task-graph.ts';
import type { MissionTaskStates } from '../../machines/mission-scheduling.ts';
import { CommanderForks } from '../commander/commander-forks.ts';
import { CommanderRegistry } from '../commander/commander-registry.ts';
import type { CreateAgentSession, RunServices } from '../contracts.ts';
import { StartLine } from './start-line.ts';

/** The shared state of one running mission (see the file comment). */
export interface MissionRuntime {
  services: RunServices;
  createAgentSession: CreateAgentSession;
  graph: TaskGraph;
  /**
   * The task states as the mission machine holds them (its actor's snapshot once the mission
   * runs; on a worker, what the run process shipped).
   */
  tasks: () => Readonly<MissionTaskStates>;
  commanders: CommanderRegistry;
  forks: CommanderForks;
  /** The order in which the tries of iterated tasks start their commanders. */
  commanderStarts: StartLine;
  /** Variable values for objectives (`vars.*`). */
  vars: Record<string, unknown>;
  /** `--keep-going`: a failed item or task does not stop the others. */
  keepGoing: boolean;
  /** Resumed run: what this mission left in the journal (taken from as actors continue). */
  restore?: MissionJournal;
}

/** The task states of a mission before its actor runs (or one whose context could not be made). */
export const NO_TASK_STATES: Readonly<MissionTaskStates> = Object.freeze({
  statuses: {},
  activators: {},
  settled: {},
});

/** A task name the mission does not have: a defect of the wiring. */
export class MissingTaskError extends SortieError {
  constructor(readonly task: string) {
    super(`the mission has no task "${task}"`);
  }
}

/**
 * The task graph of a loaded mission (see `missionGraph`), once per mission configuration
 * (which does not change once loaded; a graph is never changed after it is built): a process
 * running a mission again and again checks its cycles and sorts its tasks once.
 */
export const graphOfMission = perObject((mission: MissionConfig): TaskGraph =>
  missionGraph(mission.tasks.values()),
);

/** The mission's task graph: `depends_on`, task routes and `send_to`. */
export function missionGraph(tasks: Iterable<TaskConfig>): TaskGraph {
  return new TaskGraph(
    [...tasks].map((task) => ({
      name: task.name,
      dependsOn: task.dependsOn,
      routes: (task.routes ?? []).flatMap((route) =>
        route.target.kind === 'task' ? [route.target.name] : [],
      ),
      sendTo: task.sendTo,
    })),
  );
}

/** A fresh runtime for one mission over its services, reading its task states from `tasks`. */
export function createMissionRuntime(
  services: RunServices,
  createAgentSession: CreateAgentSession,
  tasks: () => Readonly<MissionTaskStates>,
  keepGoing = false,
  restore?: MissionJournal,
): MissionRuntime {
  return {
    ...(restore !== undefined ? { restore } : {}),
    services,
    createAgentSession,
    graph: graphOfMission(services.mission),
    tasks,
    commanders: new CommanderRegistry(services.runDir),
    forks: new CommanderForks(services),
    commanderStarts: new StartLine(),
    vars: variableValues(services.config),
    keepGoing,
  };
}

/** The task's configuration. */
export function taskConfig(runtime: MissionRuntime, task: string): TaskConfig {
  const config = runtime.services.mission.tasks.get(task);
  if (config === undefined) throw new MissingTaskError(task);
  return config;
}

/** The task's ancestors (depends_on and activators, transitively) in topological order. */
export function ancestorsOf(runtime: MissionRuntime, task: string): string[] {
  const { activators } = runtime.tasks();
  return runtime.graph.ancestors(task, (name) => activators[name]);
}

/** Whether a task has finished successfully and left its results. */
export function isCompletedTask(runtime: MissionRuntime, task: string): boolean {
  return runtime.tasks().statuses[task] === 'succeeded' && runtime.services.knowledge.has(task);
}
