/**
 * A task's work as its task machine invokes it: prepare, lock the dataset of an iterating
 * task, then one commander, a parallel iteration or a sequential one.
 */
import type { AnyActorRef } from 'xstate';
import { actorId } from '../../base/events.ts';
import type { MissionRuntime } from './mission-runtime.ts';
import { runParallelTask } from './parallel-task.ts';
import { runPlainTask } from './plain-task.ts';
import { runSequentialTask } from './sequential-task.ts';
import type { TaskOutcome } from '../../machines/task-outcome.ts';
import { prepareTask } from './task-preparation.ts';
import { restoreSucceededTask } from '../resume/restore-task.ts';

/** The summary of an iterating task whose dataset is empty. */
export function emptyDatasetSummary(dataset: string): string {
  return `dataset ${dataset} is empty: there was nothing to iterate`;
}

/**
 * Runs one task to its outcome, its actors children of `parent`; rejects only when cancelled
 * or on a defect.
 */
export async function runTaskWork(
  runtime: MissionRuntime,
  task: string,
  signal: AbortSignal,
  parent: AnyActorRef,
): Promise<TaskOutcome> {
  // The machine starts a task's work in the same step that announces it; when that is the
  // mission's first step, the announcement runs after the child starts. Yielding once keeps
  // `task.started` ahead of everything the work emits.
  await Promise.resolve();
  const prepared = prepareTask(runtime, task);
  const { succeeded } = prepared.resume;
  if (succeeded !== null) return restoreSucceededTask(prepared, succeeded.journal, succeeded.done);
  const iterator = prepared.config.iterator;
  if (iterator === undefined) return runPlainTask(prepared, signal, parent);
  const { datasets, bus, knowledge } = runtime.services;
  datasets.lock(iterator.dataset, task);
  const items = datasets.items(iterator.dataset);
  bus.emit({
    type: 'dataset.locked',
    actor: actorId.task(task),
    dataset: iterator.dataset,
    task,
    count: items.length,
  });
  if (items.length === 0) {
    const summary = emptyDatasetSummary(iterator.dataset);
    knowledge.setIteratedSummary(task, summary);
    return { status: 'succeeded', summary, route: null, missionInputs: null, items: [] };
  }
  return iterator.parallel
    ? runParallelTask(prepared, iterator.dataset, items, { signal, parent })
    : runSequentialTask(prepared, iterator.dataset, items, { signal, parent });
}
