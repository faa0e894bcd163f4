/**
 * The run's desk for questions to the person running the mission (`builtins_human_ask`).
 * Each question is an event (`human.asked`) and ends with one (`human.answered`), so the
 * journal keeps both; whoever can answer — the terminal UI, the terminal, a script — reads
 * the events and answers through `answer`. Only the asking agent waits: the run goes on.
 */
import { abortError, systemTimers, type Timers } from '../base/abort.ts';
import type { HumanAnswerSource } from '../base/events.ts';
import type { HumanAsker, HumanQuestion } from '../tools/builtins/human-ask.ts';
import { NO_HUMAN_AVAILABLE, noResponseWithin } from '../tools/builtins/human-ask.ts';
import type { AnswerScript } from './answer-script.ts';
import type { EventBus } from './event-bus.ts';
import { checkReply } from './human-answers.ts';
import { reasonOf } from '../base/reason.ts';

/** A question as a program answering for the person receives it. */
export interface AskedQuestion extends HumanQuestion {
  /** The asking agent's actor id (`agent:triage/reviewer`). */
  actor: string;
  /** The model's id of the call (a resumed run asks an unanswered question again with it). */
  callId: string;
}

/**
 * What a program answers: a text (for choices, a choice's text or its number from 1), or the
 * choices picked for a multi-select question.
 */
export type HumanReply = string | readonly string[];

/**
 * A program answering for the person (a library run's `human` function). `signal` aborts when
 * the question is no longer open (its agent stopped, or it timed out).
 */
export type HumanAnswerer = (
  question: AskedQuestion,
  context: { signal: AbortSignal },
) => HumanReply | Promise<HumanReply>;

/** What the desk of one run needs. */
export interface HumanDeskOptions {
  bus: EventBus;
  /** A person can answer (terminal UI or terminal); otherwise `[no human available]` at once. */
  available: boolean;
  /**
   * Answers every question not scripted (the library's `human` function), as the person would;
   * `available` is then irrelevant. A reply that does not fit the question, or a failure, is
   * a warning and the agent gets `[no human available]`.
   */
  answerer?: HumanAnswerer;
  /** `--human-timeout`: the longest any question waits, in seconds. */
  timeoutSeconds?: number;
  script?: AnswerScript;
  timers?: Timers;
}

/** A question waiting for the person. */
interface OpenQuestion {
  actor: string;
  callId: string;
  question: HumanQuestion;
  finish: (answer: string, how: HumanAnswerSource) => void;
}

/** What the journal records for a question whose actor was stopped before an answer. */
const CANCELLED = '[no human response: cancelled]';

function key(actor: string, callId: string): string {
  return `${actor}\u0000${callId}`;
}

/**
 * The seconds a question waits: the shorter of `--human-timeout` and the agent's
 * `timeout_seconds`, either alone, or null (no limit).
 */
export function effectiveTimeout(
  runLimit: number | undefined,
  asked: number | null,
): number | null {
  const limits = [runLimit, asked ?? undefined].filter(
    (limit): limit is number => limit !== undefined && limit > 0,
  );
  return limits.length === 0 ? null : Math.min(...limits);
}

/**
 * Where the agents of a run send their questions to the person: the run's desk, or on a worker
 * of a distributed run the desk of the run's process (through Redis).
 */
export interface HumanAskers {
  /** The asker the `builtins_human_ask` tool of `actor` uses. */
  askerFor(actor: string): HumanAsker;
}

export class HumanDesk implements HumanAskers {
  private readonly open = new Map<string, OpenQuestion>();
  private available: boolean;
  private readonly timers: Timers;

  constructor(private readonly options: HumanDeskOptions) {
    this.available = options.available;
    this.timers = options.timers ?? systemTimers;
  }

  /** The asker the `builtins_human_ask` tool of `actor` uses. */
  askerFor(actor: string): HumanAsker {
    return { ask: (question, call) => this.ask(actor, question, call.callId, call.signal) };
  }

  /**
   * The person's reply to the open question of `actor`'s call `callId`: a text (a choice by
   * text or number), or the choices picked. Returns what is wrong with the reply (the question
   * stays open), or undefined once it is answered — also when it was no longer open.
   */
  answer(actor: string, callId: string, reply: string | readonly string[]): string | undefined {
    const open = this.open.get(key(actor, callId));
    if (open === undefined) return undefined;
    const checked = checkReply(open.question, reply);
    if (!checked.ok) return checked.problem;
    open.finish(checked.answer, 'person');
    return undefined;
  }

  /** No person can answer any more (the terminal closed): open and later questions get the notice. */
  personLeft(): void {
    this.available = false;
    for (const open of [...this.open.values()]) open.finish(NO_HUMAN_AVAILABLE, 'unavailable');
  }

  /** Questions waiting for the person, oldest first. */
  waiting(): Array<{ actor: string; callId: string; question: HumanQuestion }> {
    return [...this.open.values()].map(({ actor, callId, question }) => ({
      actor,
      callId,
      question,
    }));
  }

  private ask(
    actor: string,
    question: HumanQuestion,
    callId: string,
    signal: AbortSignal,
  ): Promise<string> {
    if (signal.aborted) return Promise.reject(abortError('the question was cancelled'));
    const timeout = effectiveTimeout(this.options.timeoutSeconds, question.timeoutSeconds);
    return new Promise<string>((resolve, reject) => {
      const started = performance.now();
      let timer: unknown;
      // Aborted once the question is closed: an answering program may stop waiting.
      const closed = new AbortController();
      /** Closes the question once; the event says how it ended. */
      const close = (answer: string, how: HumanAnswerSource): boolean => {
        if (!this.open.delete(key(actor, callId))) return false;
        closed.abort();
        if (timer !== undefined) this.timers.clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        const durationMs = Math.round(performance.now() - started);
        this.options.bus.emit({ type: 'human.answered', actor, callId, answer, how, durationMs });
        return true;
      };
      const finish = (answer: string, how: HumanAnswerSource): void => {
        if (close(answer, how)) resolve(answer);
      };
      // The stopped actor does not get an answer: the call is aborted (the prompt goes away).
      const onAbort = (): void => {
        if (close(CANCELLED, 'cancelled')) reject(abortError('the question was cancelled'));
      };
      this.open.set(key(actor, callId), { actor, callId, question, finish });
      signal.addEventListener('abort', onAbort, { once: true });
      this.options.bus.emit({
        type: 'human.asked',
        actor,
        callId,
        ...question,
        timeoutSeconds: timeout,
      });
      if (this.answerAtOnce(actor, question, finish)) return;
      const { answerer } = this.options;
      if (answerer !== undefined) {
        const asked = { ...question, timeoutSeconds: timeout, actor, callId };
        this.askAnswerer(answerer, asked, closed.signal, finish);
      }
      if (timeout !== null) {
        timer = this.timers.setTimeout(
          () => finish(noResponseWithin(timeout), 'timeout'),
          timeout * 1000,
        );
      }
    });
  }

  /** A scripted answer, or the notice when nobody can answer; false when the person is asked. */
  private answerAtOnce(
    actor: string,
    question: HumanQuestion,
    finish: (answer: string, how: HumanAnswerSource) => void,
  ): boolean {
    const scripted = this.options.script?.take(actor, question.question);
    if (scripted !== undefined) {
      const checked = checkReply(question, scripted.answer);
      if (checked.ok) {
        finish(checked.answer, 'script');
        return true;
      }
      this.options.bus.emit({
        type: 'warning',
        actor,
        code: 'human.script',
        message: `${scripted.source} does not fit the question: ${checked.problem}`,
      });
    }
    if (this.available || this.options.answerer !== undefined) return false;
    finish(NO_HUMAN_AVAILABLE, 'unavailable');
    return true;
  }

  /** Hands the question to the answering program; its reply is checked like a person's. */
  private askAnswerer(
    answerer: HumanAnswerer,
    asked: AskedQuestion,
    signal: AbortSignal,
    finish: (answer: string, how: HumanAnswerSource) => void,
  ): void {
    const unanswered = (why: string): void => {
      if (signal.aborted) return;
      this.options.bus.emit({
        type: 'warning',
        actor: asked.actor,
        code: 'human.answerer',
        message: `the human function ${why}: the agent gets ${NO_HUMAN_AVAILABLE}`,
      });
      finish(NO_HUMAN_AVAILABLE, 'unavailable');
    };
    // A function that throws at once fails like one whose promise rejects.
    new Promise<HumanReply>((resolve) => resolve(answerer(asked, { signal }))).then(
      (reply) => {
        const checked = checkReply(asked, reply);
        if (checked.ok) finish(checked.answer, 'person');
        else unanswered(`replied what does not fit the question: ${checked.problem}`);
      },
      (error: unknown) => unanswered(`failed: ${reasonOf(error)}`),
    );
  }
}
