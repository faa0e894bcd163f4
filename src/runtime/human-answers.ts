/**
 * How a reply becomes the answer an agent gets: free text as typed; one choice, named by its
 * text (any case) or its number from 1; several choices as a JSON array of their texts, in
 * the order the question lists them. The terminal, the terminal UI and scripted answers all
 * go through here, so a reply reads the same wherever it is given.
 */
import type { HumanQuestion } from '../tools/builtins/human-ask.ts';

/** The answer, or what is wrong with the reply (a sentence the person can act on). */
export type AnswerCheck = { ok: true; answer: string } | { ok: false; problem: string };

/** The choice `reply` names: its exact text, its text in any case, or its number from 1. */
export function matchChoice(choices: readonly string[], reply: string): string | undefined {
  const text = reply.trim();
  const exact = choices.find((choice) => choice === text);
  if (exact !== undefined) return exact;
  const folded = choices.find((choice) => choice.toLowerCase() === text.toLowerCase());
  if (folded !== undefined) return folded;
  if (/^\d+$/.test(text)) return choices[Number(text) - 1];
  return undefined;
}

function notAChoice(choices: readonly string[], reply: string): AnswerCheck {
  const listed = choices.map((choice, index) => `${index + 1}) ${choice}`).join(', ');
  return { ok: false, problem: `"${reply.trim()}" is not one of the choices: ${listed}` };
}

/** Several picks (texts or numbers) as the JSON array the agent gets. */
export function checkPicks(question: HumanQuestion, picks: readonly string[]): AnswerCheck {
  const chosen = new Set<string>();
  for (const pick of picks) {
    const choice = matchChoice(question.choices, pick);
    if (choice === undefined) return notAChoice(question.choices, pick);
    chosen.add(choice);
  }
  return {
    ok: true,
    answer: JSON.stringify(question.choices.filter((choice) => chosen.has(choice))),
  };
}

/** The picks a multi-select text names: a JSON array of strings, or a comma-separated list. */
function picksOf(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')) return parsed;
    } catch {
      // Not JSON after all: read as a comma-separated list.
    }
  }
  return trimmed === '' ? [] : trimmed.split(',').map((pick) => pick.trim());
}

/** Checks a reply against the question: a text, or (multi-select) several picks. */
export function checkReply(
  question: HumanQuestion,
  reply: string | readonly string[],
): AnswerCheck {
  if (question.multiSelect) {
    return checkPicks(question, typeof reply === 'string' ? picksOf(reply) : reply);
  }
  if (typeof reply !== 'string') {
    return { ok: false, problem: 'the question takes one answer, not a list' };
  }
  if (question.choices.length > 0) {
    const choice = matchChoice(question.choices, reply);
    return choice === undefined
      ? notAChoice(question.choices, reply)
      : { ok: true, answer: choice };
  }
  if (reply.trim() === '') return { ok: false, problem: 'the answer is empty: type a reply' };
  return { ok: true, answer: reply.trim() };
}
