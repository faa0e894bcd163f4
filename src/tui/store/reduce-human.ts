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

/** The row's activity: the actor's oldest open question, or nothing once none is open. */
function askingActivity(questions: readonly OpenQuestion[], actor: string): string {
  const oldest = questions.find((question) => question.actor === actor);
  return oldest === undefined ? '' : `? asks you: ${firstLine(oldest.question, ROW_QUESTION)}`;
}

/** Applies a question event; returns false when the event is not one. */
export function reduceHuman(draft: StateDraft, event: MissionEvent): boolean {
  switch (event.type) {
    case 'human.asked': {
      const { seq: _seq, time: _time, runId: _runId, type: _type, ...question } = event;
      draft.setQuestions([...draft.questions, question]);
      patchActor(draft, event.actor, { activity: askingActivity(draft.questions, event.actor) });
      return true;
    }
    case 'human.answered': {
      const open = (question: { actor: string; callId: string }): boolean =>
        question.actor === event.actor && question.callId === event.callId;
      if (!draft.questions.some(open)) return true;
      draft.setQuestions(draft.questions.filter((question) => !open(question)));
      patchActor(draft, event.actor, { activity: askingActivity(draft.questions, event.actor) });
      return true;
    }
    default:
      return false;
  }
}
