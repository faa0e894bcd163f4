/**
 * Questions agents ask the person: open from `human.asked` until `human.answered`. The asking
 * actor's tree row says it waits for you, with the question's first words.
 */
import type { MissionEvent } from '../../base/events.ts';
import { firstLine } from '../../present/columns.ts';
import { patchActor } from './actor-tree.ts';
import type { StateDraft } from './draft.ts';
import type { OpenQuestion } from './state.ts';

/** Columns of the question shown on the asking actor's row. */
const ROW_QUESTION = 40;

/** Sets the open questions, and the actor's row to its oldest open one (or nothing once none is). */
function setQuestions(draft: StateDraft, actor: string, questions: readonly OpenQuestion[]): void {
  draft.set('questions', questions);
  const oldest = questions.find((question) => question.actor === actor);
  const activity =
    oldest === undefined ? '' : `? asks you: ${firstLine(oldest.question, ROW_QUESTION)}`;
  patchActor(draft, actor, { activity });
}

/** Applies a question event; returns false when the event is not one. */
export function reduceHuman(draft: StateDraft, event: MissionEvent): boolean {
  const { questions } = draft.state;
  switch (event.type) {
    case 'human.asked': {
      const { seq: _seq, time: _time, runId: _runId, type: _type, ...question } = event;
      setQuestions(draft, event.actor, [...questions, question]);
      return true;
    }
    case 'human.answered': {
      const open = (question: { actor: string; callId: string }): boolean =>
        question.actor === event.actor && question.callId === event.callId;
      const remaining = questions.filter((question) => !open(question));
      if (remaining.length < questions.length) setQuestions(draft, event.actor, remaining);
      return true;
    }
    default:
      return false;
  }
}
