/**
 * Pure scheduling helpers over a mission's tasks: static vs dynamic tasks, topological order,
 * ancestors, which tasks are ready, and which can never run. Task states stay with the
 * mission machine; these functions only read them.
 */
import { SortieError } from '../base/errors.ts';
import type { SkipReason } from '../base/events.ts';
import { findCycles } from '../config/graph-cycles.ts';

/** What scheduling needs to know about one task. */
export interface TaskNode {
  name: string;
  dependsOn: readonly string[];
  /** Router targets; names that are not tasks of this mission (missions) are ignored. */
  routes: readonly string[];
  sendTo: readonly string[];
}

/** A task's state in the mission. */
export type TaskStatus = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';

/** Task states by name; a task that is not listed is `pending`. */
export type TaskStates = ReadonlyMap<string, TaskStatus>;

/** A pending task that can never start, and why. */
export interface Unreachable {
  task: string;
  reason: SkipReason;
  /** The dependency that failed or was skipped; null for `not_activated`. */
  cause: string | null;
}

/** The tasks form a cycle through `depends_on`, routes or `send_to`. */
export class TaskCycleError extends SortieError {
  constructor(readonly tasks: string[]) {
    super(`tasks form a cycle: ${tasks.join(', ')}`);
  }
}

const FINISHED = new Set<TaskStatus>(['succeeded', 'failed', 'cancelled', 'skipped']);

/** Whether a task state is final. */
export function isFinished(status: TaskStatus): boolean {
  return FINISHED.has(status);
}

/** The dependency structure of one mission's tasks. */
export class TaskGraph {
  /** Task names in declaration order. */
  readonly names: readonly string[];
  private readonly nodes = new Map<string, TaskNode>();
  private readonly activators = new Map<string, string[]>();
  private readonly order: readonly string[];

  constructor(tasks: readonly TaskNode[]) {
    for (const task of tasks) this.nodes.set(task.name, task);
    this.names = tasks.map((task) => task.name);
    for (const task of tasks) {
      for (const target of new Set([...task.routes, ...task.sendTo])) {
        if (!this.nodes.has(target)) continue;
        this.activators.set(target, [...(this.activators.get(target) ?? []), task.name]);
      }
    }
    this.refuseCycles();
    this.order = this.sortTopologically();
  }

  /** A dynamic task starts only when a router or `send_to` activates it. */
  isDynamic(task: string): boolean {
    return this.activators.has(task);
  }

  /** Tasks that can activate `task` through a route or `send_to`, in declaration order. */
  activatorsOf(task: string): readonly string[] {
    return this.activators.get(task) ?? [];
  }

  /** Every task, dependencies and activators first; declaration order breaks ties. */
  topologicalOrder(): readonly string[] {
    return this.order;
  }

  /**
   * Every task reachable backwards through `depends_on` and through the task that activated
   * it, transitively, in topological order. Activation is a run-time fact, hence the lookup.
   */
  ancestors(task: string, activatedBy: (task: string) => string | undefined): string[] {
    const found = new Set<string>();
    const queue = [task];
    for (let current = queue.pop(); current !== undefined; current = queue.pop()) {
      const activator = activatedBy(current);
      const parents = [...(this.nodes.get(current)?.dependsOn ?? [])];
      if (activator !== undefined) parents.push(activator);
      for (const parent of parents) {
        if (parent === task || found.has(parent)) continue;
        found.add(parent);
        queue.push(parent);
      }
    }
    return this.order.filter((name) => found.has(name));
  }

  /** Pending tasks whose dependencies all succeeded and that are static or activated. */
  readyTasks(states: TaskStates, activated: ReadonlySet<string>): string[] {
    return this.names.filter((name) => {
      if ((states.get(name) ?? 'pending') !== 'pending') return false;
      if (this.isDynamic(name) && !activated.has(name)) return false;
      const dependsOn = this.nodes.get(name)?.dependsOn ?? [];
      return dependsOn.every((dependency) => states.get(dependency) === 'succeeded');
    });
  }

  /**
   * Whether some task can have `task` among its ancestors: one depends on it, or it routes or
   * sends to one. A task without any can never be asked about (`ask_commander`, `ask_agent`).
   */
  hasDescendants(task: string): boolean {
    const node = this.nodes.get(task);
    if (node !== undefined && (node.routes.length > 0 || node.sendTo.length > 0)) return true;
    for (const other of this.nodes.values()) if (other.dependsOn.includes(task)) return true;
    return false;
  }

  /**
   * Pending tasks that can never start: a dependency failed, was cancelled or skipped, or the
   * task is dynamic, not activated, and every task that could activate it has finished. One pass
   * in topological order sees earlier skips, so they cascade.
   */
  unreachableTasks(states: TaskStates, activated: ReadonlySet<string>): Unreachable[] {
    const current = new Map(states);
    const found: Unreachable[] = [];
    for (const name of this.order) {
      if ((current.get(name) ?? 'pending') !== 'pending') continue;
      const blocked = this.blockedBy(name, current, activated);
      if (blocked === undefined) continue;
      found.push(blocked);
      current.set(name, 'skipped');
    }
    return found;
  }

  /** Why a pending task can never start, or undefined if it still can. */
  private blockedBy(
    name: string,
    states: TaskStates,
    activated: ReadonlySet<string>,
  ): Unreachable | undefined {
    for (const dependency of this.nodes.get(name)?.dependsOn ?? []) {
      const status = states.get(dependency) ?? 'pending';
      if (status === 'failed' || status === 'cancelled') {
        return { task: name, reason: 'upstream_failed', cause: dependency };
      }
      if (status === 'skipped')
        return { task: name, reason: 'upstream_skipped', cause: dependency };
    }
    if (!this.isDynamic(name) || activated.has(name)) return undefined;
    const couldActivate = this.activatorsOf(name).some(
      (activator) => !isFinished(states.get(activator) ?? 'pending'),
    );
    return couldActivate ? undefined : { task: name, reason: 'not_activated', cause: null };
  }

  /** Refuses a cycle (through `depends_on`, routes or `send_to`), naming its tasks. */
  private refuseCycles(): void {
    const successors = new Map<string, string[]>(this.names.map((name) => [name, []]));
    for (const name of this.names) {
      for (const dependency of this.nodes.get(name)?.dependsOn ?? [])
        successors.get(dependency)?.push(name);
      for (const activator of this.activatorsOf(name)) successors.get(activator)?.push(name);
    }
    const cycles = findCycles(this.names, successors);
    if (cycles.length === 0) return;
    const members = new Set(cycles.flat());
    throw new TaskCycleError(this.names.filter((name) => members.has(name)));
  }

  /** Dependencies and activators first, declaration order breaking ties (the graph is acyclic). */
  private sortTopologically(): string[] {
    const placed = new Set<string>();
    const order: string[] = [];
    const predecessors = (name: string): string[] => [
      ...(this.nodes.get(name)?.dependsOn ?? []).filter((dependency) => this.nodes.has(dependency)),
      ...this.activatorsOf(name),
    ];
    while (order.length < this.names.length) {
      const next = this.names.find(
        (name) => !placed.has(name) && predecessors(name).every((parent) => placed.has(parent)),
      );
      // refuseCycles ran first: some unplaced task always has all its predecessors placed.
      if (next === undefined) break;
      placed.add(next);
      order.push(next);
    }
    return order;
  }
}
