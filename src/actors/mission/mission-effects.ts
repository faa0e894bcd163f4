/**
 * The mission machine's effects as run events. They keep no task state: the mission machine's
 * context is its one store (the runtime and the run's task results read it).
 */
import type {
  RouteChosenParams,
  TaskSkippedParams,
  TaskStartedParams,
} from '../../machines/mission-scheduling.ts';
import type { TaskMachineOutput } from '../../machines/task.machine.ts';
import { actorId } from '../../base/events.ts';
import type { MissionRuntime } from './mission-runtime.ts';

/** The four effect actions of the mission machine, provided with the runtime. */
export function missionEffects(runtime: MissionRuntime) {
  const { bus } = runtime.services;
  const startedAt = new Map<string, number>();
  return {
    emitTaskStarted: (_: unknown, params: TaskStartedParams) => {
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
      const durationMs = Math.round(performance.now() - (startedAt.get(task) ?? performance.now()));
      const actor = actorId.task(task);
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
      bus.emit({ type: 'task.skipped', actor: actorId.task(params.task), ...params });
    },
    emitRouteChosen: (_: unknown, params: RouteChosenParams) => {
      bus.emit({ type: 'route.chosen', actor: actorId.task(params.task), ...params });
    },
  };
}
