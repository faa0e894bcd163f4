/**
 * The inbox of questions agents of served runs ask the person (`builtins.human.ask`): each
 * run's desk hands its questions to the inbox (as a library run's `human` function would), and
 * whoever answers through the API settles them. A question leaves the inbox when it is
 * answered, times out, or its agent stops.
 */
import { randomUUID } from 'node:crypto';
import { redactDeep, type Redactor } from '../base/redact.ts';
import { checkReply } from '../runtime/human-answers.ts';
import type { AskedQuestion, HumanAnswerer, HumanReply } from '../runtime/human-desk.ts';

/** A waiting question as the API lists it (redacted with its run's redactor). */
export interface InboxQuestion {
  id: string;
  runId: string;
  mission: string;
  actor: string;
  /** The asking tool call's id: with `actor`, it names the question in the run's events. */
  callId: string;
  question: string;
  choices: readonly string[];
  multiSelect: boolean;
  shortSummary: string | null;
  additionalContext: string | null;
  timeoutSeconds: number | null;
  askedAt: string;
}

interface Waiting {
  listed: InboxQuestion;
  asked: AskedQuestion;
  resolve: (reply: HumanReply) => void;
}

/** What answering a question came to. */
export type AnswerOutcome = 'answered' | 'unknown' | { problem: string };

/** The questions of every served run. */
export class QuestionInbox {
  private readonly waiting = new Map<string, Waiting>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** The answerer a run's desk uses; `redact` masks the run's secrets in what is listed. */
  answererFor(run: { runId: string; mission: string; redact: () => Redactor }): HumanAnswerer {
    return (asked, { signal }) =>
      new Promise<HumanReply>((resolve) => {
        const id = randomUUID();
        const listed: InboxQuestion = redactDeep(
          {
            id,
            runId: run.runId,
            mission: run.mission,
            actor: asked.actor,
            callId: asked.callId,
            question: asked.question,
            choices: asked.choices,
            multiSelect: asked.multiSelect,
            shortSummary: asked.shortSummary,
            additionalContext: asked.additionalContext,
            timeoutSeconds: asked.timeoutSeconds,
            askedAt: this.now().toISOString(),
          },
          run.redact(),
        );
        this.waiting.set(id, { listed, asked, resolve });
        // The desk closes the question (timeout, the agent stopped): nobody can answer it now.
        signal.addEventListener('abort', () => this.waiting.delete(id), { once: true });
      });
  }

  /** Waiting questions, oldest first; only `runId`'s when given. */
  list(runId?: string): InboxQuestion[] {
    return [...this.waiting.values()]
      .map((entry) => entry.listed)
      .filter((question) => runId === undefined || question.runId === runId);
  }

  /** Answers a question: a text (a choice by text or number) or the picked choices. */
  answer(id: string, reply: HumanReply): AnswerOutcome {
    const entry = this.waiting.get(id);
    if (entry === undefined) return 'unknown';
    const checked = checkReply(entry.asked, reply);
    if (!checked.ok) return { problem: checked.problem };
    this.waiting.delete(id);
    entry.resolve(reply);
    return 'answered';
  }
}
