/**
 * The iteration machines' types and their pure rules over context and event: which try
 * settled, whether tries remain, whether a failure ends the task, and the task's error text.
 */
import { reasonOf } from '../base/reason.ts';

/** The iterator settings of the task (`1 + max_retries` tries per item). */
export interface ParallelIterationSettings {
  /** Items in the dataset. */
  total: number;
  concurrencyLimit: number;
  /** Milliseconds between the starts of the first batch. */
  startDelay: number;
  smoketest: boolean;
  maxAttempts: number;
  /** `--keep-going`: an item's final failure does not stop the others. */
  keepGoing: boolean;
}

/** What a parallel iteration starts from: its settings and, resumed, what the journal kept. */
export interface ParallelIterationInput extends ParallelIterationSettings {
  /** Items that had succeeded before a restart: not run again, counted as succeeded. */
  succeeded?: Iterable<number>;
  /** The try each item was on when the run stopped (its first try now). */
  attempts?: ReadonlyMap<number, number>;
}

/** What the `item` actor receives: one try of one item. */
export interface ItemAttemptInput {
  index: number;
  attempt: number;
  /** The item's first try in this run: a journaled conversation of it may be continued. */
  mayContinue: boolean;
}

/** How one try ended; a rejected `item` actor counts as a failed try with its reason. */
export type ItemAttemptOutput =
  | { status: 'succeeded'; output: unknown; durationMs: number }
  | { status: 'failed'; error: string };

/** A live try: its child actor's id, the slot it holds, and try `attempt` of item `index`. */
export interface LiveItem {
  id: string;
  index: number;
  attempt: number;
}

/** Keep it small: xstate copies the context on every assign. */
export interface ParallelIterationContext {
  settings: ParallelIterationSettings;
  skipped: ReadonlySet<number>;
  attempts: ReadonlyMap<number, number>;
  /** The counter items are taken from. */
  next: number;
  /** Slots open now, and how many the first batch opens. */
  slots: number;
  slotLimit: number;
  /**
   * The live tries by slot number: undefined for an idle slot. Indexed, so a settled try is found without a search, and freed slots are found
   * lowest first by one scan; `liveCount` counts the entries that are set.
   */
  live: readonly (LiveItem | undefined)[];
  liveCount: number;
  succeeded: number;
  failed: number;
  firstFailure: { index: number; error: string } | null;
  /** Fail-fast happened: no item is taken any more. */
  stopping: boolean;
}

/** How the iteration ended: counts (restored items included) and the task's error, if any. */
export interface ParallelIterationOutput {
  succeeded: number;
  failed: number;
  firstFailure: { index: number; error: string } | null;
  error: string | null;
}

/** An `item` child resolved: xstate's done event, by the child's id. */
export interface ItemTryDone {
  type: `xstate.done.actor.${string}`;
  actorId: string;
  output: ItemAttemptOutput;
}

/** An `item` child rejected (a try that threw is a failed try with its reason). */
export interface ItemTryFailed {
  type: `xstate.error.actor.${string}`;
  actorId: string;
  error: unknown;
}

/** Every event of the parallel iteration: its item tries settling. */
export type ItemEvent = ItemTryDone | ItemTryFailed;

const TRY_ID_PREFIX = 'item.';

/**
 * The id of the child running a try in slot `slot`: named by its slot, not its item, because
 * xstate keeps the transitions it found for each event type it has seen for good, and each
 * new id is a new `xstate.done.actor.<id>` type (a lookup per item of 100,000). A slot runs
 * one try at a time and a stopped try sends nothing, so the live entry tells the tries apart.
 */
export function tryId(slot: number): string {
  return `${TRY_ID_PREFIX}${slot}`;
}

/** The slot of a try's child id. */
export function slotOf(id: string): number {
  return Number(id.slice(TRY_ID_PREFIX.length));
}

/** `itemStarted`: a try of an item starts. */
export interface ItemStartedParams {
  index: number;
  attempt: number;
}

/** `itemSucceeded`: the item's output was accepted. */
export interface ItemSucceededParams {
  index: number;
  attempt: number;
  output: unknown;
  durationMs: number;
}

/** `itemFailed`: a try failed; `final` when no try remains (the item failed for good). */
export interface ItemFailedParams {
  index: number;
  attempt: number;
  error: string;
  final: boolean;
}

/** `itemRetrying`: the next try of an item, with a fresh item actor. */
export interface ItemRetryingParams {
  index: number;
  attempt: number;
  maxAttempts: number;
  error: string;
}

/** A settled try: which item, and its output or the reason it failed. */
export type SettledAttempt = LiveItem &
  ({ failure: null; output: unknown; durationMs: number } | { failure: string });

/** The initial context. */
export function parallelContext(input: ParallelIterationInput): ParallelIterationContext {
  const { succeeded, attempts, ...settings } = input;
  const skipped = new Set([...(succeeded ?? [])].filter((index) => index < settings.total));
  return {
    settings,
    skipped,
    attempts: attempts ?? new Map(),
    next: 0,
    slots: 0,
    slotLimit: 0,
    live: [],
    liveCount: 0,
    succeeded: skipped.size,
    failed: 0,
    firstFailure: null,
    stopping: false,
  };
}

/** The try an item starts with: 1, or the one a resumed run's item was on. */
export function firstAttemptOf(context: ParallelIterationContext, index: number): number {
  return Math.min(context.attempts.get(index) ?? 1, context.settings.maxAttempts);
}

/** Slots of the first batch: the concurrency limit, or fewer when fewer items remain. */
export function firstBatchSize(context: ParallelIterationContext): number {
  const remaining = context.settings.total - context.next;
  return Math.max(1, Math.min(context.settings.concurrencyLimit, remaining));
}

/** The try whose child settled with `event`, or undefined for a child that is not live. */
export function settledAttempt(
  context: ParallelIterationContext,
  event: ItemEvent,
): SettledAttempt | undefined {
  const live = context.live[slotOf(event.actorId)];
  if (live === undefined || live.id !== event.actorId) return undefined;
  // Properties written out: an object spread here is slow (its site sees many shapes;
  // bench/README.md), and the guards of one settlement ask four times.
  const { id, index, attempt } = live;
  if ('error' in event) return { id, index, attempt, failure: reasonOf(event.error) };
  const result = event.output;
  if (result.status === 'failed') return { id, index, attempt, failure: result.error };
  return {
    id,
    index,
    attempt,
    failure: null,
    output: result.output,
    durationMs: result.durationMs,
  };
}

/** Whether the item of a failed try has another try. */
export function triesLeft(context: ParallelIterationContext, settled: SettledAttempt): boolean {
  return settled.attempt < context.settings.maxAttempts;
}

/** Whether the counter still has an item to hand out. */
export function canTakeItem(context: ParallelIterationContext): boolean {
  if (context.stopping) return false;
  for (let index = context.next; index < context.settings.total; index += 1) {
    if (!context.skipped.has(index)) return true;
  }
  return false;
}

/** The task's error: the smoke test's, the first failure's, or (keep-going) a count. */
export function iterationError(context: ParallelIterationContext): string | null {
  const first = context.firstFailure;
  if (first === null) return null;
  const { settings } = context;
  if (settings.smoketest && first.index === 0) return `smoketest item 0 failed: ${first.error}`;
  if (settings.keepGoing) {
    return `${context.failed} of ${settings.total} items failed; first: item ${first.index}: ${first.error}`;
  }
  return `item ${first.index} failed: ${first.error}`;
}
