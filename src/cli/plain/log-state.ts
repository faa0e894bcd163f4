/**
 * What the line log remembers between events: the start time, dataset sizes (for
 * `iteration 3/20`), each task's outcome, and token and dollar totals per model. Built from
 * events alone, so a live run and a replayed journal print the same lines and summary.
 */
import { totalTokens } from '../../models/usage.ts';
import type { EventOf, MissionEvent, RunTotals } from '../../base/events.ts';
import { skipText } from '../../present/event-text.ts';
import { entryOf } from '../../base/per-object.ts';

/** A task as the summary shows it. */
export interface TaskLine {
  mission: string;
  task: string;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled' | 'skipped';
  /** Summary, error, cancel reason or skip reason. */
  detail: string;
  output?: unknown;
  /** Iterated tasks: outputs of succeeded items by index. */
  items: Map<number, unknown>;
  failedItems: number;
}

/** Spending on one model (`provider/config.key`). */
export interface ModelSpend {
  requests: number;
  tokens: number;
  costPico: bigint;
  unpriced: boolean;
}

/** The line log's memory of the run so far. */
export interface LogState {
  startMs: number | undefined;
  mission: string;
  /** `depends_on` names by `mission/task`, from the config when known (`started (depends on …)`). */
  dependencies: ReadonlyMap<string, readonly string[]>;
  /** Item counts by task, from `dataset.locked`. */
  iterationTotals: Map<string, number>;
  /**
   * A resumed run: outputs of the items that had succeeded in earlier sessions, by
   * `mission/task` and index. They do not run again, so no event of this session tells them.
   */
  earlierItems: ReadonlyMap<string, ReadonlyMap<number, unknown>>;
  tasks: Map<string, TaskLine>;
  models: Map<string, ModelSpend>;
  tokens: number;
  costPico: bigint;
  unpriced: boolean;
}

/**
 * A fresh state; `dependencies` maps `mission/task` to its `depends_on` task names,
 * `earlierItems` holds a resumed run's items that succeeded before (see LogState).
 */
export function createLogState(
  dependencies: ReadonlyMap<string, readonly string[]> = new Map(),
  earlierItems: ReadonlyMap<string, ReadonlyMap<number, unknown>> = new Map(),
): LogState {
  return {
    startMs: undefined,
    mission: '',
    dependencies,
    iterationTotals: new Map(),
    earlierItems,
    tasks: new Map(),
    models: new Map(),
    tokens: 0,
    costPico: 0n,
    unpriced: false,
  };
}

/** The key of a task of the current mission in `tasks` and `dependencies`. */
export function taskKey(state: LogState, task: string): string {
  return `${state.mission}/${task}`;
}

/** Records what an event tells (call before formatting its line). */
export function observeEvent(state: LogState, event: MissionEvent): void {
  state.startMs ??= Date.parse(event.time);
  switch (event.type) {
    case 'run.started':
      if (event.before !== undefined) countEarlierSessions(state, event.before);
      return;
    case 'mission.started':
      state.mission = event.mission;
      return;
    case 'dataset.locked':
      state.iterationTotals.set(taskKey(state, event.task), event.count);
      return;
    case 'model.response':
      recordSpend(state, event);
      return;
    case 'task.started': {
      const key = taskKey(state, event.task);
      // A task started again (a resumed run) keeps the items that had succeeded: they do not
      // run again. Those that failed do, so their count starts over.
      const items = new Map([
        ...(state.earlierItems.get(key) ?? []),
        ...(state.tasks.get(key)?.items ?? []),
      ]);
      state.tasks.set(key, runningLine(state, event.task, items));
      return;
    }
    case 'iteration.succeeded':
      taskLine(state, event.task).items.set(event.index, event.output);
      return;
    case 'iteration.failed':
      if (event.final) taskLine(state, event.task).failedItems += 1;
      return;
    case 'task.succeeded':
      // A task without an output schema reports null: nothing to show under outputs.
      Object.assign(taskLine(state, event.task), {
        status: 'succeeded',
        detail: event.summary,
        output: event.output === null ? undefined : event.output,
      });
      return;
    case 'task.failed':
      Object.assign(taskLine(state, event.task), { status: 'failed', detail: event.error });
      return;
    case 'task.cancelled':
      Object.assign(taskLine(state, event.task), { status: 'cancelled', detail: event.reason });
      return;
    case 'task.skipped':
      Object.assign(taskLine(state, event.task), {
        status: 'skipped',
        detail: skipText(event.reason, event.cause),
      });
      return;
    default:
      return;
  }
}

/** Tasks of one mission that have finished (any outcome but running). */
export function finishedTasks(state: LogState, mission: string): TaskLine[] {
  return [...state.tasks.values()].filter(
    (line) => line.mission === mission && line.status !== 'running',
  );
}

function taskLine(state: LogState, task: string): TaskLine {
  return entryOf(state.tasks, taskKey(state, task), () => runningLine(state, task, new Map()));
}

function runningLine(state: LogState, task: string, items: Map<number, unknown>): TaskLine {
  return { mission: state.mission, task, status: 'running', detail: '', items, failedItems: 0 };
}

/**
 * A resumed run's spending starts from what its journal counted before: set, not added, so a
 * replayed journal (whose earlier responses were already counted) ends with the same figures.
 */
function countEarlierSessions(state: LogState, before: RunTotals): void {
  state.models = new Map(
    before.models.map((spent) => [
      `${spent.model.config}.${spent.model.key}`,
      {
        requests: spent.requests,
        tokens: totalTokens(spent.usage),
        costPico: BigInt(spent.costPico),
        unpriced: spent.unpriced,
      },
    ]),
  );
  state.tokens = totalTokens(before.usage);
  state.costPico = BigInt(before.costPico);
  state.unpriced = before.unpriced;
}

function recordSpend(state: LogState, event: EventOf<'model.response'>): void {
  const tokens = totalTokens(event.usage);
  const cost = BigInt(event.costPico);
  const name = `${event.model.config}.${event.model.key}`;
  const spend = state.models.get(name) ?? { requests: 0, tokens: 0, costPico: 0n, unpriced: false };
  spend.requests += 1;
  spend.tokens += tokens;
  spend.costPico += cost;
  spend.unpriced ||= event.unpriced;
  state.models.set(name, spend);
  state.tokens += tokens;
  state.costPico += cost;
  state.unpriced ||= event.unpriced;
}
