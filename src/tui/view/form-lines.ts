/**
 * The lines of a question's form as the terminal UI shows it: who asks, the question, one line
 * per field (label, `*` when required, its value, what it takes), how to fill it, and what was
 * wrong with the last try to send it.
 */
import type { HumanFormField } from '../../base/events.ts';
import type { OpenQuestion } from '../store/index.ts';
import { optionsOf, type AnswerForm } from './answer-form.ts';

/** One line of the form; only `text` lines (the question's words) wrap. */
export interface FormLine {
  text: string;
  kind: 'title' | 'text' | 'field' | 'focused' | 'help' | 'problem';
}

/** What a field takes, for the person. */
function takes(field: HumanFormField): string {
  const kind =
    field.type === 'boolean'
      ? 'yes or no'
      : field.choices.length > 0
        ? `one of ${field.choices.join(', ')}`
        : field.type === 'integer'
          ? 'a whole number'
          : field.type === 'number'
            ? 'a number'
            : 'text';
  return field.description === null ? kind : `${kind}: ${field.description}`;
}

function fieldLine(field: HumanFormField, value: string, focused: boolean): FormLine {
  const name = `${field.label}${field.required ? '*' : ''}`;
  const picked = optionsOf(field).length > 0;
  const shown = picked ? `‹ ${value === '' ? '(not given)' : value} ›` : value;
  const cursor = focused && !picked ? '▌' : '';
  return {
    text: `${focused ? '>' : ' '} ${name}: ${shown}${cursor}  (${takes(field)})`,
    kind: focused ? 'focused' : 'field',
  };
}

/** The form's lines for `question` (which has a `form`) as `form` has it filled. */
export function formLines(question: OpenQuestion, form: AnswerForm): FormLine[] {
  const fields = question.form ?? [];
  const lines: FormLine[] = [
    { text: `? ${question.actor} asks you:`, kind: 'title' },
    ...question.question.split('\n').map((text): FormLine => ({ text, kind: 'text' })),
    { text: '', kind: 'text' },
    ...fields.map((field, index) =>
      fieldLine(field, form.values[index] ?? '', index === form.focus),
    ),
    { text: '', kind: 'text' },
  ];
  const wait = question.timeoutSeconds === null ? '' : ` · waits ${question.timeoutSeconds}s`;
  lines.push({
    text: `(* required; tab/↑/↓ field, ←/→ value; enter sends, esc answers later${wait})`,
    kind: 'help',
  });
  if (form.problem !== null) lines.push({ text: form.problem, kind: 'problem' });
  return lines;
}
