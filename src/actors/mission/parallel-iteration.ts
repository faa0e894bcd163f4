/**
 * Parallel iteration: one commander per item, at most `concurrencyLimit` alive at a time.
 * Workers pull item indexes from a counter, so nothing is made per item up front and a
 * finished commander leaves only plain data (its record, its registry entry): 10,000 items
 * run in bounded live actors. Each item gets `1 + maxRetries` tries, each with a fresh commander.
 */
import { setMaxListeners } from 'node:events';
import { reasonOf } from '../../machines/turn-types.ts';
import { abortError, isAbortError } from '../../base/abort.ts';
import { actorId } from '../../base/events.ts';
import { itemIdOf, iteratedSummary } from '../../runtime/knowledge-store.ts';
import { itemObjectiveMessage } from '../../runtime/prompts/commander-prompt.ts';
import { commanderError } from './plain-task.ts';
import type { TaskItemRecord, TaskOutcome } from '../../machines/task-outcome.ts';
import { failedOutcome } from '../../machines/task-outcome.ts';
import type { PreparedTask } from './task-preparation.ts';
import { objectiveText } from './task-preparation.ts';
import { runTaskCommander } from './task-commander.ts';

/** Waits `milliseconds`, or rejects when `signal` aborts. */
function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One item to the end: tries until one succeeds or none remain. */
async function runItem(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  index: number,
  signal: AbortSignal,
): Promise<TaskItemRecord> {
  const { bus, knowledge } = prepared.runtime.services;
  const task = prepared.config.name;
  const item = items[index];
  const itemId = itemIdOf(item, index);
  const maxAttempts = 1 + (prepared.config.iterator?.maxRetries ?? 0);
  const actor = actorId.commander(task, index);
  // A resumed item goes on with the try it was on when the run stopped.
  const firstAttempt = Math.min(prepared.runtime.restore?.attempts.get(actor) ?? 1, maxAttempts);
  let error = '';
  for (let attempt = firstAttempt; attempt <= maxAttempts; attempt += 1) {
    bus.emit({ type: 'iteration.started', actor, task, index, itemId, attempt });
    const started = performance.now();
    try {
      const result = await runTaskCommander(
        prepared,
        {
          index,
          objective: () =>
            itemObjectiveMessage(objectiveText(prepared, { value: item }), dataset, index, item),
          input: { itemIndex: index },
          resumable: attempt === firstAttempt,
        },
        signal,
      );
      const failure = commanderError(result);
      if (failure === undefined) {
        const output = result.output?.value ?? null;
        knowledge.recordIteration(task, { index, item, status: 'succeeded', output });
        const durationMs = Math.round(performance.now() - started);
        bus.emit({
          type: 'iteration.succeeded',
          actor,
          task,
          index,
          itemId,
          attempt,
          output,
          durationMs,
        });
        return { index, itemId, status: 'succeeded', output };
      }
      error = failure;
    } catch (thrown) {
      if (isAbortError(thrown) || signal.aborted) throw thrown;
      error = reasonOf(thrown);
    }
    const final = attempt === maxAttempts;
    bus.emit({ type: 'iteration.failed', actor, task, index, itemId, attempt, error, final });
    if (!final) {
      bus.emit({
        type: 'iteration.retrying',
        actor,
        task,
        index,
        itemId,
        attempt: attempt + 1,
        maxAttempts,
        error,
      });
    }
  }
  knowledge.recordIteration(task, { index, item, status: 'failed', error });
  return { index, itemId, status: 'failed', error };
}

/** Resumed run: the items that had succeeded, recorded again in the knowledge store. */
function restoredItems(prepared: PreparedTask, items: readonly unknown[]): TaskItemRecord[] {
  const task = prepared.config.name;
  const succeeded = prepared.runtime.restore?.items.get(task);
  if (succeeded === undefined) return [];
  const { knowledge } = prepared.runtime.services;
  return [...succeeded.values()]
    .filter((record) => record.index < items.length)
    .map((record) => {
      const output = record.output;
      knowledge.recordIteration(task, {
        index: record.index,
        item: items[record.index],
        status: 'succeeded',
        output,
      });
      return { index: record.index, itemId: record.itemId, status: 'succeeded', output };
    });
}

/** Runs every item of the (locked, non-empty) dataset; see the file comment. */
export async function runParallelIteration(
  prepared: PreparedTask,
  dataset: string,
  items: readonly unknown[],
  signal: AbortSignal,
): Promise<TaskOutcome> {
  const iterator = prepared.config.iterator;
  const { knowledge } = prepared.runtime.services;
  const task = prepared.config.name;
  const keepGoing = prepared.runtime.keepGoing;
  const stop = new AbortController();
  const itemSignal = AbortSignal.any([signal, stop.signal]);
  // Every live item's commander listens on this one signal (concurrency_limit of them, each
  // removed when its item ends): not a leak, so no "possible memory leak" warning past 10.
  setMaxListeners(0, itemSignal);
  const records: TaskItemRecord[] = restoredItems(prepared, items);
  const restored = new Set(records.map((record) => record.index));
  let firstFailure: TaskItemRecord | undefined;
  let next = 0;
  /** The next item to run: resumed runs skip the items that had succeeded. */
  const take = (): number | undefined => {
    while (next < items.length && restored.has(next)) next += 1;
    if (next >= items.length) return undefined;
    next += 1;
    return next - 1;
  };

  const settle = (record: TaskItemRecord): void => {
    records.push(record);
    if (record.status === 'failed' && firstFailure === undefined) firstFailure = record;
    if (record.status === 'failed' && !keepGoing) stop.abort();
  };

  if (iterator?.smoketest === true && !restored.has(0)) {
    settle(await runItem(prepared, dataset, items, 0, signal));
    next = 1;
  }
  const worker = async (slot: number): Promise<void> => {
    // The first batch starts `startDelay` ms apart; later items start as slots free up.
    if (slot > 0 && (iterator?.startDelay ?? 0) > 0) {
      await sleep(slot * (iterator?.startDelay ?? 0), itemSignal);
    }
    for (let index = take(); index !== undefined && !itemSignal.aborted; index = take()) {
      settle(await runItem(prepared, dataset, items, index, itemSignal));
    }
  };
  // A failed smoketest skips the other items, --keep-going or not.
  if (firstFailure === undefined) {
    const limit = Math.max(1, Math.min(iterator?.concurrencyLimit ?? 1, items.length - next));
    const workers = Array.from({ length: limit }, (_, slot) => worker(slot));
    const settled = await Promise.allSettled(workers);
    if (signal.aborted) throw abortError('the task was cancelled');
    for (const outcome of settled) {
      // Aborts come from the stop after a failure; anything else is a defect to report.
      if (outcome.status === 'rejected' && !isAbortError(outcome.reason)) throw outcome.reason;
    }
  }
  records.sort((left, right) => left.index - right.index);
  const succeeded = records.filter((record) => record.status === 'succeeded').length;
  const failed = records.length - succeeded;
  const summary = iteratedSummary(items.length, dataset, succeeded, failed);
  knowledge.setIteratedSummary(task, summary);
  if (firstFailure !== undefined) {
    const smoke = iterator?.smoketest === true && firstFailure.index === 0;
    const error = smoke
      ? `smoketest item 0 failed: ${firstFailure.error ?? ''}`
      : keepGoing
        ? `${failed} of ${items.length} items failed; first: item ${firstFailure.index}: ${firstFailure.error ?? ''}`
        : `item ${firstFailure.index} failed: ${firstFailure.error ?? ''}`;
    return failedOutcome(error, { summary, items: records });
  }
  return { status: 'succeeded', summary, route: null, missionInputs: null, items: records };
}
