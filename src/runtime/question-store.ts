/**
 * The mission's question store: every `ask_commander` question and answer, per target task
 * (its iterations included), for `list_commander_questions` and `get_commander_answer`.
 */
import { SortieError } from '../base/errors.ts';
import { abortError, systemTimers, type Timers } from '../base/abort.ts';
import type { ToolResultObject } from './knowledge-store.ts';

/** One question, as `list_commander_questions` shows it (plus the answer once there). */
export interface QuestionRecord {
  index: number;
  question: string;
  /** The iteration asked, for iterated targets; null otherwise. */
  iteration: number | null;
  /** The asking task, `y` or `y[1]`. */
  asked_by: string;
  answered: boolean;
  answer?: string;
  /** Why no answer will come (the fork failed). */
  error?: string;
}

/** Recording an answer for a question that does not exist or is already settled. */
export class QuestionStateError extends SortieError {
  constructor(
    message: string,
    readonly task: string,
    readonly index: number,
  ) {
    super(message);
  }
}

/** How long `get_commander_answer` waits for an answer still being produced. */
export const DEFAULT_ANSWER_WAIT_MS = 120_000;

/** Questions and answers per target task. */
export class QuestionStore {
  private readonly questions = new Map<string, QuestionRecord[]>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly timers: Timers;

  constructor(options: { timers?: Timers } = {}) {
    this.timers = options.timers ?? systemTimers;
  }

  /** Records a question; returns its index among the task's questions. */
  ask(
    task: string,
    question: { question: string; iteration: number | null; askedBy: string },
  ): number {
    const list = this.questions.get(task) ?? [];
    const index = list.length;
    list.push({
      index,
      question: question.question,
      iteration: question.iteration,
      asked_by: question.askedBy,
      answered: false,
    });
    this.questions.set(task, list);
    return index;
  }

  /** Records the answer and wakes every `getAnswer` waiting for it. */
  answer(task: string, index: number, answer: string): void {
    const record = this.unsettled(task, index);
    record.answered = true;
    record.answer = answer;
    this.wake(task, index);
  }

  /** Records that no answer will come (the fork failed), waking waiters. */
  fail(task: string, index: number, error: string): void {
    this.unsettled(task, index).error = error;
    this.wake(task, index);
  }

  /** One question's record, or undefined. */
  get(task: string, index: number): QuestionRecord | undefined {
    return this.questions.get(task)?.[index];
  }

  /** The `list_commander_questions` result. */
  list(task: string): ToolResultObject {
    const questions = (this.questions.get(task) ?? []).map((record) => ({
      index: record.index,
      question: record.question,
      iteration: record.iteration,
      asked_by: record.asked_by,
      answered: record.answered,
    }));
    return { status: 'ok', task, questions };
  }

  /**
   * The `get_commander_answer` result: the answer, or `{status: "pending"}` when none has come
   * after `waitMs`. Rejects with an AbortError when `signal` aborts during the wait.
   */
  async getAnswer(
    task: string,
    index: number,
    options: { waitMs?: number; signal?: AbortSignal } = {},
  ): Promise<ToolResultObject> {
    const list = this.questions.get(task) ?? [];
    const record = Number.isInteger(index) ? list[index] : undefined;
    if (record === undefined)
      return { status: 'error', error: outOfRange(task, index, list.length) };
    if (!record.answered && record.error === undefined) {
      await this.waitFor(task, index, options.waitMs ?? DEFAULT_ANSWER_WAIT_MS, options.signal);
    }
    if (record.answered) {
      return { status: 'ok', question: record.question, answer: record.answer ?? '' };
    }
    if (record.error !== undefined) {
      return { status: 'error', error: `question ${index} was not answered: ${record.error}` };
    }
    return { status: 'pending' };
  }

  private unsettled(task: string, index: number): QuestionRecord {
    const record = this.get(task, index);
    if (record === undefined) {
      throw new QuestionStateError(`task "${task}" has no question ${index}`, task, index);
    }
    if (record.answered || record.error !== undefined) {
      throw new QuestionStateError(
        `question ${index} to task "${task}" is already settled`,
        task,
        index,
      );
    }
    return record;
  }

  private waitFor(
    task: string,
    index: number,
    waitMs: number,
    signal?: AbortSignal,
  ): Promise<void> {
    if (signal?.aborted) return Promise.reject(abortError('waiting for the answer was aborted'));
    const key = waiterKey(task, index);
    return new Promise<void>((resolve, reject) => {
      const finish = (): void => {
        this.timers.clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const set = this.waiters.get(key);
        set?.delete(wake);
        if (set?.size === 0) this.waiters.delete(key);
      };
      const wake = (): void => {
        finish();
        resolve();
      };
      const onAbort = (): void => {
        finish();
        reject(abortError('waiting for the answer was aborted'));
      };
      const timer = this.timers.setTimeout(wake, waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      const set = this.waiters.get(key) ?? new Set();
      set.add(wake);
      this.waiters.set(key, set);
    });
  }

  private wake(task: string, index: number): void {
    for (const wake of [...(this.waiters.get(waiterKey(task, index)) ?? [])]) wake();
  }
}

function waiterKey(task: string, index: number): string {
  return `${task}\u0000${index}`;
}

function outOfRange(task: string, index: number, count: number): string {
  if (count === 0) {
    return `question ${index} does not exist: task "${task}" has 0 questions; ask one with ask_commander`;
  }
  const range =
    count === 1 ? '1 question (index 0)' : `${count} questions (indexes 0-${count - 1})`;
  return `question ${index} does not exist: task "${task}" has ${range}; see list_commander_questions`;
}
