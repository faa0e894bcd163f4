/**
 * A parallel iterated task: the parallel iteration machine provided with the item actor (one
 * commander for one try of one item) and effects that emit the iteration events and record
 * each settled item in the knowledge store.
 */
import { fromPromise } from 'xstate';
import { withItemActor } from '../../machines/iteration.machine.ts';
import type {
  ItemAttemptInput,
  ItemAttemptOutput,
  ItemFailedParams,
  ItemRetryingParams,
  ItemStartedParams,
  ItemSucceededParams,
} from '../../machines/iteration-context.ts';
import type { CommanderResult } from '../../machines/commander-context.ts';
import type { TaskItemRecord, TaskOutcome } from '../../machines/task-outcome.ts';
import { failedOutcome } from '../../machines/task-outcome.ts';
import { actorId } from '../../base/events.ts';
import { itemIdOf, iteratedSummary, type TaskKnowledge } from '../../runtime/knowledge-store.ts';
import type { QuestionTools, QueuedItem } from '../contracts.ts';
import { runQuestionTool } from '../commander/external-tools.ts';
import { itemObjectiveMessage } from '../../runtime/prompts/commander-prompt.ts';
import { runToEnd, type InvokedBy } from '../run-to-end.ts';
import { RelayedItems } from '../resume/relayed-items.ts';
import { keepRestoredCommander } from '../resume/restore-task.ts';
import { commanderError } from './plain-task.ts';
import { isCompletedTask } from './mission-runtime.ts';
import type { PreparedTask } from './task-preparation.ts';
import { objectiveText } from './task-preparation.ts';
import { runTaskCommander } from './task-commander.ts';

/**
 * One try of one item in this process: a fresh commander from the item's objective (or its
 * journaled try), a child of `by.parent`. A worker of a distributed run calls it too.
 */
export async function runItemCommander(
  prepared: PreparedTask,
  dataset: string,
  item: { index: number; value: unknown; mayContinue: boolean },
  by: InvokedBy,
): Promise<ItemAttemptOutput> {
  const { index, value } = item;
  const started = performance.now();
  const turn = prepared.runtime.commanderStarts.take();
  await turn.ready;
  let running: Promise<CommanderResult>;
  try {
    running = runTaskCommander(
      prepared,
      {
        index,
        objective: () =>
          itemObjectiveMessage(objectiveText(prepared, { value }), dataset, index, value),
        input: { itemIndex: index },
        resumable: item.mayContinue,
      },
      by,
    );
  } finally {
    turn.done();
  }
  const result = await running;
  const failure = commanderError(result);
  if (failure !== undefined) return { status: 'failed', error: failure };
  const durationMs = Math.round(performance.now() - started);
  return { status: 'succeeded', output: result.output?.value ?? null, durationMs };
}

/** What a worker needs of a try (`--queue`): the task as prepared here and its ancestors' results. */
function queuedItem(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  input: ItemAttemptInput,
): QueuedItem {
  const { knowledge, mission } = prepared.runtime.services;
  const known: Record<string, TaskKnowledge> = {};
  // The worker takes each task whose results come along as completed (run/worker-runs.ts).
  for (const name of prepared.ancestors) {
    const entry = knowledge.get(name);
    if (entry !== undefined && isCompletedTask(prepared.runtime, name)) known[name] = entry;
  }
  return {
    mission: mission.name,
    task: prepared.config.name,
    dataset,
    index: input.index,
    attempt: input.attempt,
    item: items[input.index],
    prepared: {
      ancestors: prepared.ancestors,
      system: prepared.system,
      commanderTask: prepared.commanderTask,
    },
    knowledge: known,
  };
}

/**
 * How this process answers the question tools of the task's items that run on workers: as
 * the item's own commander would, with the task's ancestors (it has no agents of its own here).
 */
function questionTools(prepared: PreparedTask): QuestionTools {
  const task = prepared.config.name;
  return ({ index, tool, args }, signal) =>
    runQuestionTool(
      {
        runtime: prepared.runtime,
        task,
        index,
        actorId: actorId.commander(task, index),
        agents: new Map(),
        sessions: new Map(),
        ancestors: prepared.ancestors,
      },
      tool,
      args,
      { signal },
    );
}

/**
 * One try of one item: here, or as a job for a worker when the run has an item queue (whose
 * commander, once the try settled, `relayed` keeps from its worker's events).
 */
function itemActor(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  relayed: RelayedItems | undefined,
) {
  return fromPromise<ItemAttemptOutput, ItemAttemptInput>(async ({ input, signal, self }) => {
    const { services } = prepared.runtime;
    if (services.itemQueue !== undefined) {
      const item = queuedItem(prepared, dataset, items, input);
      const outcome = await services.itemQueue.run(item, services, signal, questionTools(prepared));
      relayed?.keep(input.index);
      return outcome;
    }
    const { index, mayContinue } = input;
    const item = { index, value: items[index], mayContinue };
    return runItemCommander(prepared, dataset, item, { signal, parent: self });
  });
}

/**
 * A settled item's commander and agents send no more requests: the run's model turn forgets
 * them. Their turn counts stay when a chained mission could bring back the same actor ids (it
 * has a task of this name): that actor's turns go on from them, as cassettes key turns by actor.
 */
function itemReleaser(prepared: PreparedTask): (index: number) => void {
  const { config, mission, runModelTurn } = prepared.runtime.services;
  const task = prepared.config.name;
  const keepTurns = [...config.missions.values()].some(
    (other) => other.name !== mission.name && other.tasks.has(task),
  );
  const agents = [...prepared.agents.keys()];
  return (index) => {
    const actors = [
      actorId.commander(task, index),
      ...agents.map((agent) => actorId.agent(task, agent, index)),
    ];
    runModelTurn.release(actors, { keepTurns });
  };
}

/** The iteration events of the task's items; each settled item's record goes to the knowledge store. */
function itemEffects(prepared: PreparedTask, items: readonly unknown[]) {
  const { bus, knowledge } = prepared.runtime.services;
  const task = prepared.config.name;
  const release = itemReleaser(prepared);
  const about = (index: number) => ({
    actor: actorId.commander(task, index),
    task,
    index,
    itemId: itemIdOf(items[index], index),
  });
  return {
    itemStarted: (_: unknown, { index, attempt }: ItemStartedParams) => {
      bus.emit({ type: 'iteration.started', ...about(index), attempt });
    },
    itemSucceeded: (_: unknown, params: ItemSucceededParams) => {
      const { index, output } = params;
      knowledge.recordIteration(task, { index, item: items[index], status: 'succeeded', output });
      release(index);
      const { attempt, durationMs } = params;
      bus.emit({ type: 'iteration.succeeded', ...about(index), attempt, output, durationMs });
    },
    itemFailed: (_: unknown, { index, attempt, error, final }: ItemFailedParams) => {
      bus.emit({ type: 'iteration.failed', ...about(index), attempt, error, final });
      if (!final) return;
      knowledge.recordIteration(task, { index, item: items[index], status: 'failed', error });
      release(index);
    },
    itemRetrying: (_: unknown, params: ItemRetryingParams) => {
      bus.emit({ type: 'iteration.retrying', ...about(params.index), ...params });
    },
  };
}

/**
 * The items that had succeeded before a restart, recorded again in the knowledge store, their
 * commanders kept from the journal for later tasks' questions.
 */
function restoreItems(prepared: PreparedTask, items: readonly unknown[]): number[] {
  const task = prepared.config.name;
  const { knowledge } = prepared.runtime.services;
  const restored = prepared.resume.succeededItems.filter((record) => record.index < items.length);
  for (const record of restored) {
    knowledge.recordIteration(task, {
      index: record.index,
      item: items[record.index],
      status: 'succeeded',
      output: record.output,
    });
    const journal = prepared.runtime.restore;
    if (journal !== undefined) keepRestoredCommander(prepared, journal, record.index);
  }
  return restored.map((record) => record.index);
}

/**
 * The task's item records for its outcome (the run's result lists them), read back from the
 * knowledge store once the iteration is over: while it runs, no list grows per item.
 */
function itemRecords(prepared: PreparedTask): TaskItemRecord[] {
  const knowledge = prepared.runtime.services.knowledge.get(prepared.config.name);
  if (knowledge?.iterated !== true) return [];
  return knowledge.records.map(({ index, item_id: itemId, status, output, error }) =>
    status === 'succeeded'
      ? { index, itemId, status, output }
      : { index, itemId, status, error: error ?? '' },
  );
}

/**
 * Collects the relayed events of the task's items when they run on workers and a later task
 * can ask their commanders (nothing is collected otherwise).
 */
function relayedItems(prepared: PreparedTask): RelayedItems | undefined {
  const { runtime } = prepared;
  if (runtime.services.itemQueue === undefined) return undefined;
  if (!runtime.graph.hasDescendants(prepared.config.name)) return undefined;
  return new RelayedItems(prepared);
}

/** Runs every item of the (locked, non-empty) dataset to the task's outcome, under `by.parent`. */
export async function runParallelTask(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  by: InvokedBy,
): Promise<TaskOutcome> {
  const iterator = prepared.config.iterator;
  const restored = restoreItems(prepared, items);
  const relayed = relayedItems(prepared);
  const actor = itemActor(prepared, dataset, items, relayed);
  const machine = withItemActor(actor, itemEffects(prepared, items));
  const output = await runToEnd(
    machine,
    {
      total: items.length,
      concurrencyLimit: iterator?.concurrencyLimit ?? 1,
      startDelay: iterator?.startDelay ?? 0,
      smoketest: iterator?.smoketest === true,
      maxAttempts: 1 + (iterator?.maxRetries ?? 0),
      keepGoing: prepared.runtime.keepGoing,
      succeeded: restored,
      attempts: prepared.resume.attempts,
    },
    by.signal,
    'the task was cancelled',
    by.parent === undefined ? {} : { parent: by.parent },
  ).finally(() => relayed?.close());
  const summary = iteratedSummary(items.length, dataset, output.succeeded, output.failed);
  prepared.runtime.services.knowledge.setIteratedSummary(prepared.config.name, summary);
  const records = itemRecords(prepared);
  if (output.error !== null) return failedOutcome(output.error, { summary, items: records });
  return { status: 'succeeded', summary, route: null, missionInputs: null, items: records };
}
