/**
 * The slots of a parallel iteration: each runs the tries the iteration hands it, one at a time
 * (each try a fresh `item` actor), and reports each settled try to the iteration machine with
 * one `slot.settled` event; a try that throws is reported as a failed try with its reason.
 *
 * The slots are not actors of the machine. xstate copies a machine's `children` object on
 * every spawn and stop (and a stop leaves the copy in dictionary mode), so an iteration with
 * `concurrency_limit = 1024` paid a copy of up to 1,024 entries per slot when its slots were
 * spawned and again when they were stopped at its end: quadratic in the limit. A slot actor
 * also took two events of its own per item. Now the machine's one child, `slots`, owns the
 * tries: its entry actions start a try in a slot (`slotsOf(self).run`), cancel one
 * (`cancel`), and xstate stopping the child stops every try still running (its requests are
 * aborted) and drops what they settle with afterwards.
 */
import { createActor, fromCallback, type AnyActorRef, type PromiseActorLogic } from 'xstate';
import type { ItemAttemptInput, ItemAttemptOutput, SlotSettledEvent } from './iteration-context.ts';
import { besideMachine } from './beside-machine.ts';
import { reasonOf } from './turn-types.ts';

/** One try of one item (provided by the wiring: a commander here, or a queued job). */
export type ItemLogic = PromiseActorLogic<ItemAttemptOutput, ItemAttemptInput>;

/** The running tries of one iteration machine, by slot number. */
export class SlotTries {
  private readonly running: (AnyActorRef | undefined)[] = [];
  private item: ItemLogic | undefined;
  /** Tries asked for before the `slots` child started (the machine's first entry actions). */
  private readonly waiting: Array<{ slot: number; input: ItemAttemptInput }> = [];
  private stopped = false;
  private count = 0;
  /** The most tries that ran at once. */
  peak = 0;

  constructor(private readonly machine: AnyActorRef) {}

  /** Starts `input`'s try in `slot` (a slot runs one try at a time). */
  run(slot: string, input: ItemAttemptInput): void {
    if (this.stopped) return;
    const position = Number(slot);
    if (this.item === undefined) {
      this.waiting.push({ slot: position, input });
      return;
    }
    this.start(this.item, position, input);
  }

  /** Stops the try of `slot`, if one runs: its requests are aborted, its outcome dropped. */
  cancel(slot: string): void {
    const position = Number(slot);
    const attempt = this.running[position];
    if (attempt === undefined) return;
    this.forget(position);
    attempt.stop();
  }

  /** The slots whose try is running, lowest first. */
  runningSlots(): string[] {
    const slots: string[] = [];
    this.running.forEach((attempt, position) => {
      if (attempt !== undefined) slots.push(String(position));
    });
    return slots;
  }

  /** The `slots` child started: the tries asked for meanwhile start, in order. */
  attach(item: ItemLogic): void {
    this.item = item;
    for (const { slot, input } of this.waiting.splice(0)) this.start(item, slot, input);
  }

  /** The `slots` child stopped: every running try stops, nothing is reported any more. */
  stop(): void {
    this.stopped = true;
    const running = this.running.splice(0);
    this.count = 0;
    for (const attempt of running) attempt?.stop();
  }

  private start(item: ItemLogic, position: number, input: ItemAttemptInput): void {
    const attempt = createActor(item, { input });
    this.running[position] = attempt;
    this.count += 1;
    this.peak = Math.max(this.peak, this.count);
    attempt.subscribe({
      complete: () => {
        const output = attempt.getSnapshot().output as ItemAttemptOutput;
        this.settle(position, attempt, output);
      },
      error: (error: unknown) =>
        this.settle(position, attempt, { status: 'failed', error: reasonOf(error) }),
    });
    attempt.start();
  }

  private settle(position: number, attempt: AnyActorRef, output: ItemAttemptOutput): void {
    // A cancelled try, or one whose slot was stopped, reports nothing.
    if (this.running[position] !== attempt) return;
    this.forget(position);
    const settled: SlotSettledEvent = { type: 'slot.settled', slot: String(position), output };
    this.machine.send(settled);
  }

  private forget(position: number): void {
    this.running[position] = undefined;
    this.count -= 1;
  }
}

/** The slots of an iteration machine (an action's `self`). */
export const slotsOf = besideMachine((machine) => new SlotTries(machine));

/** The id of the machine's one child, which owns the tries. */
export const SLOTS_ID = 'slots';

/**
 * The `slots` child running `item`'s tries: it lives as long as its machine and stops every
 * try still running when it stops. Invoke it with `input: ({ self }) => ({ machine: self })`.
 */
export function slotsActor(item: ItemLogic) {
  return fromCallback<{ type: never }, { machine: AnyActorRef }>(({ input }) => {
    const tries = slotsOf(input.machine);
    tries.attach(item);
    return () => tries.stop();
  });
}
