/**
 * Scripted answers to the questions agents ask the person (`--answer`, `--answers FILE`), for
 * tests and demos. An entry naming an actor and/or a question text answers every question it
 * matches; an entry naming neither answers the next question asked, in order, once.
 */
import { parseActorId } from '../base/events.ts';

/** One scripted answer. */
export interface ScriptedAnswer {
  /** The reply: a text (a choice by text or number), or several choices. */
  answer: string | readonly string[];
  /** The asking actor's id (`agent:triage/reviewer`) or its agent's name (`reviewer`). */
  actor?: string;
  /** Part of the question's text, in any case. */
  question?: string;
}

/** A reply the script gave, with the entry it came from (for messages). */
export interface ScriptReply {
  answer: string | readonly string[];
  /** `answer 2` (the second ordered one) or `the answer for actor reviewer`. */
  source: string;
}

function describe(entry: ScriptedAnswer): string {
  const parts = [
    ...(entry.actor === undefined ? [] : [`actor ${entry.actor}`]),
    ...(entry.question === undefined ? [] : [`question "${entry.question}"`]),
  ];
  return `the answer for ${parts.join(' and ')}`;
}

/** The answers of one run; matched entries first, then the ordered ones. */
export class AnswerScript {
  private readonly matched: ScriptedAnswer[];
  private readonly ordered: ScriptedAnswer[];
  private taken = 0;

  constructor(entries: readonly ScriptedAnswer[]) {
    this.matched = entries.filter((entry) => isMatched(entry));
    this.ordered = entries.filter((entry) => !isMatched(entry));
  }

  /** The reply to `question` from `actor`, or undefined when the script has none left for it. */
  take(actor: string, question: string): ScriptReply | undefined {
    const entry = this.matched.find((candidate) => matches(candidate, actor, question));
    if (entry !== undefined) return { answer: entry.answer, source: describe(entry) };
    const next = this.ordered[this.taken];
    if (next === undefined) return undefined;
    this.taken += 1;
    return { answer: next.answer, source: `scripted answer ${this.taken}` };
  }
}

function isMatched(entry: ScriptedAnswer): boolean {
  return entry.actor !== undefined || entry.question !== undefined;
}

function matches(entry: ScriptedAnswer, actor: string, question: string): boolean {
  if (entry.actor !== undefined && entry.actor !== actor) {
    if (parseActorId(actor)?.agent !== entry.actor) return false;
  }
  if (entry.question === undefined) return true;
  return question.toLowerCase().includes(entry.question.toLowerCase());
}
