/**
 * The mission machine's decisions as pure functions over its context: which tasks start,
 * which are skipped, what a finished task activates, what fail-fast cancels. Each returns the
 * new context fields and the effects to run, in order; the machine only applies them.
 */
import type { SkipReason, RouteActivation } from '../base/events.ts';
import { TaskGraph, type TaskStatus } from '../runtime/task-graph.ts';
import type { TaskMachineOutput, TaskWork } from './task.machine.ts';

/** A task as the mission schedules it. */
export interface MissionTaskSpec {
  name: string;
  dependsOn: string[];
  /** Router routes: key and target. */
  routes: Array<{ key: string; kind: 'task' | 'mission'; target: string }>;
  sendTo: string[];
  iterated: boolean;
}

/** Where the run goes next when this mission succeeds. */
export interface MissionChain {
  mission: string;
  inputs: Record<string, unknown>;
  /** The task whose route chose it. */
  from: string;
}

/**
 * The mission's task states: the run's one store of them (the mission machine's context;
 * everything else reads them from the mission actor's snapshot).
 */
export interface MissionTaskStates {
  statuses: Record<string, TaskStatus>;
  /** Activated dynamic tasks and the task that activated each. */
  activators: Record<string, string>;
  /** What each settled task's actor ended with. */
  settled: Record<string, TaskMachineOutput>;
}

/** The mission machine's context: task states, activations, fail-fast and chain state. */
export interface MissionContext extends MissionTaskStates {
  mission: string;
  graph: TaskGraph;
  specs: Record<string, MissionTaskSpec>;
  keepGoing: boolean;
  chain: boolean;
  cancelReason: string | null;
  failedTask: string | null;
  error: string | null;
  chainTo: MissionChain | null;
  /** What the run gives the machine (see `MissionEnvironment`); null in machine tests. */
  environment: MissionEnvironment | null;
}

/**
 * The run's side of a mission machine: each task's work and the effects' implementations.
 * Without one the machine's `task` actor and `emit*` actions must be provided; one machine
 * then serves every run (`provide` per run rebuilt the state nodes of both machines).
 */
export interface MissionEnvironment {
  work: TaskWork;
  effects: MissionEffects;
}

/** The implementations of the mission's effects (xstate action signatures). */
export interface MissionEffects {
  emitTaskStarted(args: unknown, params: TaskStartedParams): void;
  emitTaskSettled(args: unknown, params: TaskMachineOutput): void;
  emitTaskSkipped(args: unknown, params: TaskSkippedParams): void;
  emitRouteChosen(args: unknown, params: RouteChosenParams): void;
}

/** The effects the mission machine names as actions (no-ops until the wiring provides them). */
export type MissionEffect =
  | { type: 'emitTaskStarted'; params: TaskStartedParams }
  | { type: 'emitTaskSettled'; params: TaskMachineOutput }
  | { type: 'emitTaskSkipped'; params: TaskSkippedParams }
  | { type: 'emitRouteChosen'; params: RouteChosenParams };

/** `emitTaskStarted`: a task starts. */
export interface TaskStartedParams {
  task: string;
  activatedBy: string | null;
  iterated: boolean;
}

/** `emitTaskSkipped`: a pending task can never start. */
export interface TaskSkippedParams {
  task: string;
  reason: SkipReason;
  cause: string | null;
}

/** `emitRouteChosen`: what a router or `send_to` activated. */
export interface RouteChosenParams {
  task: string;
  via: 'router' | 'send_to';
  route: string | null;
  targets: RouteActivation[];
}

/** A step of scheduling: context changes, effects, tasks to spawn and tasks to cancel. */
export interface SchedulingStep {
  changes: Partial<MissionContext>;
  effects: MissionEffect[];
  spawn: string[];
  cancel: string[];
  /** Why the tasks in `cancel` are cancelled. */
  cancelReason?: string;
}

/** The initial context from the mission's tasks. */
export function missionContext(input: {
  mission: string;
  tasks: MissionTaskSpec[];
  keepGoing?: boolean;
  chain?: boolean;
  environment?: MissionEnvironment;
}): MissionContext {
  const graph = new TaskGraph(
    input.tasks.map((task) => ({
      name: task.name,
      dependsOn: task.dependsOn,
      routes: task.routes.filter((route) => route.kind === 'task').map((route) => route.target),
      sendTo: task.sendTo,
    })),
  );
  return {
    mission: input.mission,
    graph,
    specs: Object.fromEntries(input.tasks.map((task) => [task.name, task])),
    statuses: Object.fromEntries(input.tasks.map((task) => [task.name, 'pending' as TaskStatus])),
    activators: {},
    settled: {},
    keepGoing: input.keepGoing ?? false,
    chain: input.chain ?? true,
    cancelReason: null,
    failedTask: null,
    error: null,
    chainTo: null,
    environment: input.environment ?? null,
  };
}

function statusMap(statuses: Record<string, TaskStatus>): Map<string, TaskStatus> {
  return new Map(Object.entries(statuses));
}

/** Skips the pending tasks the graph says can never start (a dependency failed or was skipped). */
function skipUnreachable(context: MissionContext): {
  statuses: Record<string, TaskStatus>;
  effects: MissionEffect[];
} {
  const statuses = { ...context.statuses };
  const effects: MissionEffect[] = [];
  const activated = new Set(Object.keys(context.activators));
  for (const skipped of context.graph.unreachableTasks(statusMap(statuses), activated)) {
    statuses[skipped.task] = 'skipped';
    effects.push({ type: 'emitTaskSkipped', params: { ...skipped } });
  }
  return { statuses, effects };
}

/**
 * Starts every ready task — static ones whose `depends_on` all succeeded, and activated
 * dynamic ones — after skipping the tasks that can never start.
 */
export function startReadyTasks(context: MissionContext): SchedulingStep {
  const { statuses, effects } = skipUnreachable(context);
  const spawn: string[] = [];
  const activated = new Set(Object.keys(context.activators));
  for (const name of context.graph.readyTasks(statusMap(statuses), activated)) {
    statuses[name] = 'running';
    spawn.push(name);
    effects.push({
      type: 'emitTaskStarted',
      params: {
        task: name,
        activatedBy: context.activators[name] ?? null,
        iterated: context.specs[name]?.iterated ?? false,
      },
    });
  }
  return { changes: { statuses }, effects, spawn, cancel: [] };
}

/** The mission is stopping: every pending task is skipped (`mission_stopped` unless the graph says why). */
export function skipPendingTasks(context: MissionContext): SchedulingStep {
  const { statuses, effects } = skipUnreachable(context);
  for (const name of context.graph.topologicalOrder()) {
    if (statuses[name] !== 'pending') continue;
    statuses[name] = 'skipped';
    effects.push({
      type: 'emitTaskSkipped',
      params: { task: name, reason: 'mission_stopped', cause: context.failedTask },
    });
  }
  return { changes: { statuses }, effects, spawn: [], cancel: [] };
}

/** Records a finished task: the routes it activates, or the first failure. */
export function settle(context: MissionContext, output: TaskMachineOutput): SchedulingStep {
  const statuses = { ...context.statuses, [output.task]: output.status as TaskStatus };
  const activators = { ...context.activators };
  const effects: MissionEffect[] = [{ type: 'emitTaskSettled', params: output }];
  const settled = { ...context.settled, [output.task]: output };
  const changes: Partial<MissionContext> = { statuses, activators, settled };
  if (output.status === 'succeeded' && output.outcome !== null) {
    const spec = context.specs[output.task];
    const chainTo = { value: context.chainTo };
    if (spec !== undefined && spec.routes.length > 0) {
      const route = output.outcome.route;
      const chosen = spec.routes.find((candidate) => candidate.key === route);
      const targets =
        chosen === undefined
          ? []
          : [activate(context, statuses, activators, chainTo, output, chosen)];
      effects.push({
        type: 'emitRouteChosen',
        params: { task: output.task, via: 'router', route, targets },
      });
    }
    if (spec !== undefined && spec.sendTo.length > 0) {
      const targets = spec.sendTo.map((target) =>
        activate(context, statuses, activators, chainTo, output, { kind: 'task', target }),
      );
      effects.push({
        type: 'emitRouteChosen',
        params: { task: output.task, via: 'send_to', route: null, targets },
      });
    }
    changes.chainTo = chainTo.value;
  }
  if (output.status === 'failed') {
    changes.failedTask = context.failedTask ?? output.task;
    changes.error = context.error ?? output.error ?? 'the task failed';
  }
  return { changes, effects, spawn: [], cancel: [] };
}

/** First-one-wins activation of one target; mission targets become the chain. */
function activate(
  context: MissionContext,
  statuses: Record<string, TaskStatus>,
  activators: Record<string, string>,
  chainTo: { value: MissionChain | null },
  output: TaskMachineOutput,
  target: { kind: 'task' | 'mission'; target: string },
): RouteActivation {
  const name = target.target;
  if (target.kind === 'mission') {
    if (!context.chain)
      return { kind: 'mission', name, activated: false, reason: 'chaining_disabled' };
    if (chainTo.value !== null)
      return { kind: 'mission', name, activated: false, reason: 'already_activated' };
    chainTo.value = {
      mission: name,
      inputs: output.outcome?.missionInputs ?? {},
      from: output.task,
    };
    return { kind: 'mission', name, activated: true };
  }
  const status = statuses[name] ?? 'pending';
  if (status !== 'pending')
    return { kind: 'task', name, activated: false, reason: 'already_finished' };
  if (activators[name] !== undefined)
    return { kind: 'task', name, activated: false, reason: 'already_activated' };
  activators[name] = output.task;
  return { kind: 'task', name, activated: true };
}

/** Every running task is cancelled, for `reason`. */
export function cancelRunningTasks(context: MissionContext, reason: string): SchedulingStep {
  const cancel = Object.entries(context.statuses)
    .filter(([, status]) => status === 'running')
    .map(([name]) => name);
  return { changes: {}, effects: [], spawn: [], cancel, cancelReason: reason };
}

/** Whether no task is running. */
export function nothingRunning(context: MissionContext): boolean {
  return !Object.values(context.statuses).includes('running');
}

/** Whether some task failed (fail-fast or keep-going). */
export function someTaskFailed(context: MissionContext): boolean {
  return context.failedTask !== null || Object.values(context.statuses).includes('failed');
}
