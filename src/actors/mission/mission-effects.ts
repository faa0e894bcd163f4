/**
 * The mission machine's effects as run events, kept in step with the mission runtime (task
 * states and activations the commanders' tools read) and collected into task results.
 */
import type { MissionConfig } from '../../config/config-types.ts';
import type {
  RouteChosenParams,
  TaskSkippedParams,
  TaskStartedParams,
} from '../../machines/mission-scheduling.ts';
import type { TaskMachineOutput } from '../../machines/task.machine.ts';
import { actorId } from '../../base/events.ts';
import type { TaskResult } from '../contracts.ts';
import type { MissionRuntime } from './mission-runtime.ts';

/** Task results of one mission, filled as tasks settle. */
export class TaskResults {
  private readonly results = new Map<string, TaskResult>();

  constructor(private readonly mission: MissionConfig) {
    for (const name of mission.tasks.keys()) {
      this.results.set(name, { mission: mission.name, name, status: 'pending' });
    }
  }

  update(task: string, fields: Partial<TaskResult>): void {
    const current = this.results.get(task) ?? {
      mission: this.mission.name,
      name: task,
      status: 'pending',
    };
    this.results.set(task, { ...current, ...fields });
  }

  /** Every task of the mission in declaration order. */
  list(): TaskResult[] {
    return [...this.results.values()];
  }
}

/** The four effect actions of the mission machine, provided with the runtime. */
export function missionEffects(runtime: MissionRuntime, results: TaskResults) {
  const { bus } = runtime.services;
  const startedAt = new Map<string, number>();
  return {
    emitTaskStarted: (_: unknown, params: TaskStartedParams) => {
      runtime.statuses.set(params.task, 'running');
      if (params.activatedBy !== null) runtime.activators.set(params.task, params.activatedBy);
      startedAt.set(params.task, performance.now());
      const restored = runtime.restore?.succeededTasks.has(params.task) === true;
      bus.emit({
        type: 'task.started',
        actor: actorId.task(params.task),
        ...params,
        ...(restored ? { restored } : {}),
      });
    },
    emitTaskSettled: (_: unknown, params: TaskMachineOutput) => {
      const { task, status, outcome } = params;
      runtime.statuses.set(task, status);
      const durationMs = Math.round(performance.now() - (startedAt.get(task) ?? performance.now()));
      const actor = actorId.task(task);
      const fields: Partial<TaskResult> = { status };
      if (outcome !== null) {
        fields.summary = outcome.summary;
        if (outcome.output !== undefined) fields.output = outcome.output;
        if (outcome.items !== undefined) fields.items = outcome.items;
        fields.route = outcome.route;
      }
      if (params.error !== null) fields.error = params.error;
      results.update(task, fields);
      if (status === 'succeeded') {
        bus.emit({
          type: 'task.succeeded',
          actor,
          task,
          summary: outcome?.summary ?? '',
          output: outcome?.output ?? null,
          route: outcome?.route ?? null,
          durationMs,
        });
      } else if (status === 'failed') {
        bus.emit({
          type: 'task.failed',
          actor,
          task,
          error: params.error ?? 'the task failed',
          durationMs,
        });
      } else {
        bus.emit({ type: 'task.cancelled', actor, task, reason: params.error ?? 'cancelled' });
      }
    },
    emitTaskSkipped: (_: unknown, params: TaskSkippedParams) => {
      runtime.statuses.set(params.task, 'skipped');
      results.update(params.task, { status: 'skipped' });
      bus.emit({ type: 'task.skipped', actor: actorId.task(params.task), ...params });
    },
    emitRouteChosen: (_: unknown, params: RouteChosenParams) => {
      for (const target of params.targets) {
        if (target.kind === 'task' && target.activated)
          runtime.activators.set(target.name, params.task);
      }
      bus.emit({ type: 'route.chosen', actor: actorId.task(params.task), ...params });
    },
  };
}
