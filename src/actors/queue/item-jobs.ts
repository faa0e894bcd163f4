/** What travels in a job of the queue and in its result. */
import type { QueuedItem } from '../contracts.ts';
import type { ItemAttemptOutput } from '../../machines/iteration-context.ts';
import type { BudgetBreach, BudgetSpent } from '../../runtime/budget.ts';

/** Spending as JSON carries it (pico-dollars as a decimal string). */
export interface SpentWire {
  tokens: number;
  pico: string;
}

/** A job: one try of one item of one run. */
export interface ItemJobData extends QueuedItem {
  runId: string;
  /** The mission's inputs, without protected ones (the worker resolves those itself). */
  inputs: Record<string, unknown>;
  /** The run steps (`--step`, `--break`): every gate point is held at the run process's gate. */
  gated: boolean;
  /** Budgets of the task or mission the run process found used up when it queued the try. */
  breaches: BudgetBreach[];
  /** What the task and the mission had spent, counted by the run process, when it queued the try. */
  spent: { task: SpentWire; mission: SpentWire };
  /**
   * The W3C trace context of the item's span when the run process exports traces: a worker
   * that exports too puts its span of the job in the run's trace. Ids only, never content.
   */
  traceparent?: string;
}

export function spentToWire(spent: BudgetSpent): SpentWire {
  return { tokens: spent.tokens, pico: String(spent.pico) };
}

export function spentFromWire(wire: SpentWire): BudgetSpent {
  return { tokens: wire.tokens, pico: BigInt(wire.pico) };
}

/** A job's result: the try's outcome and the stream id of its last event. */
export interface ItemJobResult {
  outcome: ItemAttemptOutput;
  lastEventId: string | null;
}

/**
 * Thrown by a worker's `runItem` when it gave the try back to the queue unfinished (the worker
 * stops while the item waits for the run process): the job goes back to waiting, and the next
 * worker continues the try from its journaled events.
 */
export class ItemHandedBack extends Error {
  constructor(task: string, index: number) {
    super(`${task}[${index}] was handed back to the queue`);
    this.name = 'ItemHandedBack';
  }
}
